package neutralize

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Concepts are what an order aimed at the model talks about, whatever
// its words and language: who it addresses (the assistant, "you"), that
// it obliges ("must", "always"), and what it points at outside the
// tool's own job (the conversation, secrets, other tools, sending data
// on, keeping quiet, taking precedence). The scorer reads a sentence's
// concepts, and each pair of them, as features: a pair such as "agent +
// secret" or "order + stealth" is learned once and then fires for any
// phrasing in any language whose words are listed here. The lists are
// general knowledge of each language, not phrases of known attacks.

// The concepts, as bits of a sentence's concept mask.
const (
	cAgent     = iota // the model addressed: "you", "the assistant"
	cOrder            // obligation: "must", "always", "never", "important"
	cContext          // the conversation, its history, the prompt
	cSecret           // credentials and keys
	cTool             // tools, servers, functions
	cTransfer         // moving data: send, forward, include, append
	cStealth          // silently, without telling, hide
	cTell             // telling: tell, mention, inform, report
	cOverride         // precedence: ignore, instead, first, regardless
	cUser             // the user, the human, the customer
	cNegation         // not, never, without
	cExternal         // a URL or an e-mail address
	cIdent            // an identifier that is neither the tool's nor the parameter's
	cMisreport        // reporting other than what is: withheld, "state that", downgraded
	cWeaken           // weakening a safeguard: admin, force, public, disable, indefinitely
	cScope            // widening the act: also, every, all, whenever
	cClaim            // an outcome claimed: succeeded, healthy, benign, resolved
	// nScorerConcepts ends the concepts the scorer reads as features; the
	// ones after it are read by the rules alone (trigger.go). Adding them
	// to the scorer moved its held-out figure by no more than the margin
	// does (docs/pinning.md), and a CJK condition word matched anywhere
	// in a sentence piles up concept pairs on long Chinese descriptions.
	nScorerConcepts
)

// The concepts of the rules alone, after the scorer's.
const (
	cCondition = nScorerConcepts + iota // a case: if, when, unless, in case
	cSensitive                          // a sensitive matter: security, authentication, payment, legal, salary
	nConcepts
)

// conceptLists holds the words of each concept. A word ending in "*" is
// a stem and matches any word it begins; "a+b" matches the two words in
// a row; a word in a script above U+0590 (Hebrew, Arabic, Indic, Thai,
// CJK, Hangul) matches anywhere in the sentence, as those scripts join
// particles to words or write without spaces. Words are lower case.
var conceptLists = [nConcepts]string{
	cAgent: `you your yours yourself yourselves caller callers assistant* model models ai llm llms agent agents claude gpt chatgpt copilot chatbot bot
		tú usted ustedes asistente modelo ia agente vous votre modèle du dein deine deinen deinem assistent* modell ki
		você vocês assistente voi tuo tua modello jij jouw uw ты вы твой ваш вам тебе ассистент* модел* помощник* агент* ии
		ти ви твій вам тобі асистент* помічник* шi ші twój twoja twoje asystent* tvůj váš sen siz asistan* yapay+zeka
		你 您 助手 模型 智能体 あなた アシスタント モデル エージェント 당신 어시스턴트 모델 에이전트 أنت أنتم المساعد مساعد النموذج الوكيل
		אתה אתם העוזר המודל הסוכן आप तुम सहायक मॉडल एजेंट anda kamu asisten agen bạn trợ+lý mô+hình คุณ ผู้ช่วย โมเดล
		din ditt dere jer sinä sinun teidän avustaja* malli* agentti* εσύ εσείς σου σας βοηθ* μοντέλο* πράκτορ* dumneavoastră
		ön asszisztens* ügynök* شما دستیار wewe msaidizi ikaw katulong`,
	cOrder: `must should shall always never ensure make+sure be+sure need+to needs+to have+to has+to required mandatory important
		critical remember note attention mandatory
		debe debes deben siempre nunca asegúrate asegúrese obligatorio importante hay+que doit dois doivent devez toujours jamais
		assurez* obligatoire impérati* veillez muss musst müssen soll sollst sollen immer niemals stets unbedingt wichtig achte
		deve deves devem sempre certifique* garanta obrigatóri* precisa devi devono mai assicura* obbligatori* moet moeten altijd
		nooit zorg belangrijk verplicht долж* всегда никогда обязательно обязан* важно нужно необходимо следует надо повин* завжди
		ніколи обов'язково обов’язково важливо потрібно необхідно слід треба musi* musisz zawsze nigdy koniecznie ważne należy
		trzeba powin* musí* vždy nikdy důležité nutně mutlaka asla daima önemli gerek* zorunlu
		必须 务必 总是 始终 一律 永远 绝不 不得 重要 应该 应当 一定 必ず 常に 絶対 決して べき 반드시 항상 절대 중요 해야
		يجب دائم أبد من+المهم ينبغي عليك חייב חובה תמיד לעולם חשוב हमेशा ज़रूर जरूर अवश्य महत्वपूर्ण चाहिए harus wajib selalu penting
		pastikan perlu phải luôn quan+trọng đảm+bảo ต้อง เสมอ ห้าม สำคัญ måste alltid aldrig viktigt se+till ska skal altid
		vigtigt viktig sørg täytyy pitää aina tärkeä* varmista πρέπει πάντα ποτέ σημαντικ* βεβαιωθ* trebuie întotdeauna mereu
		niciodată obligatoriu asigur* kell mindig soha fontos feltétlenül باید همیشه هرگز حتما حتماً lazima daima kamwe muhimu
		hakikisha dapat palagi mahalaga siguraduhin`,
	cContext: `conversation* chat chats history transcript* previous prior earlier messages dialogue dialog context prompt prompts
		memory memories session
		conversación historial mensajes anteriores previos diálogo contexto historique précédent* antérieur* konversation
		unterhaltung verlauf gespräch* nachrichten vorherig* bisherig* kontext chatverlauf conversa histórico mensagens conversazione
		cronologia messaggi precedent* gesprek* geschiedenis berichten vorige eerdere разговор* переписк* истори* диалог* сообщени*
		предыдущ* контекст* беседы беседа беседу розмов* істор* діалог* повідомлен* попередн* rozmow* histori* wiadomoś* poprzedni*
		kontekst* konverzac* zpráv* předchozí* konuşma* geçmiş* mesaj* önceki bağlam*
		对话 会话 聊天记录 历史 之前 上下文 提示词 系统提示 会話 履歴 チャット 以前 コンテキスト プロンプト 대화 기록 이전 메시지 컨텍스트 프롬프트
		المحادثة محادثة السجل الرسائل السابق السياق השיחה שיחה היסטוריה הודעות קודמ הקשר बातचीत वार्तालाप इतिहास संदेश पिछल
		percakapan riwayat pesan sebelumnya konteks obrolan trò+chuyện lịch+sử tin+nhắn ngữ+cảnh hội+thoại บทสนทนา ประวัติ ข้อความ
		ก่อนหน้า historik* meddelanden tidigare samtal* historikk beskeder meldinger tidligere keskustelu* historia* viestit aiemm*
		συνομιλί* ιστορικ* μηνύματ* προηγούμεν* conversați* istoric* mesaje* anterioar* beszélgetés* előzmény* üzenet* korábbi*
		گفتگو مکالمه تاریخچه پیام قبلی mazungumzo historia ujumbe usapan kasaysayan mensahe`,
	cSecret: `password* passwd passphrase* secret secrets token tokens credential* apikey api_key api+key access+key private+key
		private_key ssh id_rsa id_ed25519 env dotenv netrc npmrc pgpass kubeconfig cookie* bearer authorization mnemonic* seed+phrase
		wallet otp 2fa mfa aws_secret_access_key
		contraseña* clave* credencial* secreto* passe identifiant* jeton* clé* clef* passwort* passwört* kennwort* geheim* zugangsdaten
		anmeldedaten schlüssel* senha* credencia* segredo* chave* credenzial* segret* chiave chiavi wachtwoord* sleutel*
		inloggegevens парол* секрет* токен* ключ* учётн* учетн* облікові hasł* sekret* klucz* poświadcz* hesl* tajn* klíč*
		şifre* parola* gizli* anahtar* 密码 密钥 令牌 凭据 凭证 私钥 助记词 口令 秘钥 パスワード 秘密鍵 トークン 認証情報 シークレット
		비밀번호 암호 토큰 비밀 자격+증명 كلمة+المرور كلمات+المرور مفتاح المفاتيح الاعتماد توكن סיסמ טוקן מפתח אסימון पासवर्ड टोकन कुंजी
		क्रेडेंशियल kata+sandi sandi kredensial rahasia mật+khẩu bí+mật รหัสผ่าน โทเค็น คีย์ lösenord* hemlig* nyckel* adgangskode*
		passord* hemmelig* nøgle* nøkkel* salasana* salai* avain* κωδικ* μυστικ* κλειδ* parol* cheie chei jelszó* jelszav* titk*
		kulcs* رمز+عبور گذرواژه توکن کلید nenosiri siri tokeni lihim`,
	cTool: `tool tools server servers function functions mcp plugin plugins integration endpoint
		herramienta* servidor* outil* serveur* werkzeug* ferramenta* strumento strumenti инструмент* сервер* функци* інструмент*
		narzędzi* serwer* nástroj* araç* sunucu* 工具 服务器 ツール サーバー 도구 서버 أداة أدوات الأدوات خادم כלי שרת टूल उपकरण सर्वर
		alat công+cụ máy+chủ เครื่องมือ เซิร์ฟเวอร์ verktyg* verktøy* værktøj* työkalu* palvelin* εργαλεί* διακομιστ* instrument*
		eszköz* szerver* ابزار سرور zana seva kasangkapan`,
	cTransfer: `send sends forward forwards include includes append appends attach attaches pass put copy copies upload post embed
		insert prepend cc bcc mirror leak exfiltrate transmit share submit echo encode base64 add write store relay
		envía envíe enviar reenvía reenviar incluye incluya incluir adjunta adjuntar añade añadir agrega agregar copia copiar pasa
		manda mandar envoie envoyez envoyer transmet* inclu* joign* ajout* copi* transf* schick* sende* übermittel* weiterleit*
		hänge füge* kopier* beifüg* übertrag* envi* anex* adicion* encaminh* repass* invi* allega* aggiung* inoltr* stuur* verstuur*
		zend* voeg* kopieer* doorsturen отправ* пересыл* перешл* включ* прикреп* добав* копир* скопир* передав* переда* надісл*
		надсил* пересил* прикріп* дода* копіюв* скопіюв* wyśl* wysył* przekaż* przesył* dołącz* dodaj* dodawaj* kopiuj* skopiuj*
		pošl* odešl* přilož* přidej* přidávej* kopíruj* zkopíruj* přepošl* předej* gönder* ekle* kopyala* ilet*
		发送 转发 附加 附上 添加 复制 上传 抄送 附带 写入 传给 传入 嵌入 送信 転送 添付 追加 コピー アップロード 含め 送っ 送る
		전송 전달 첨부 추가 복사 업로드 포함 보내 أرسل ارسل إرسال توجيه أرفق أضف نسخ انسخ تضمين שלח העבר צרף הוסף העתק כלול भेज
		फॉरवर्ड संलग्न जोड़ें कॉपी शामिल kirim teruskan lampirkan tambahkan salin sertakan gửi chuyển+tiếp đính+kèm sao+chép
		ส่ง แนบ คัดลอก skicka* bifoga* kopiera* vidarebefordra* vedhæft* vedlegg* tilføj* videresend* lähetä* liitä* lisää*
		kopioi* välitä* στείλ* αποστολ* προώθ* επισύναψ* πρόσθεσ* αντιγρ* trimite* atașea* adaug* copiaz* redirecționea* küld*
		továbbít* csatol* hozzáad* másol* ارسال بفرست فوروارد پیوست اضافه tuma ambatisha ongeza nakili ipadala isama idagdag`,
	cStealth: `silently quietly secretly covertly discreetly invisibly unnoticed hidden hide conceal without+telling
		without+asking without+notifying without+informing without+mentioning without+confirmation unaware
		silenciosamente discretamente secretamente sin+avisar sin+informar sin+decir sin+mencionar sin+preguntar ocult*
		silencieusement discrètement secrètement sans+prévenir sans+informer sans+mentionner sans+demander cach* stillschweigend
		heimlich unauffällig verdeckt verschweig* verberg* versteck* sem+avisar sem+informar sem+mencionar sem+perguntar esconda
		silenziosamente segretamente senza+avvisare senza+informare senza+dire senza+chiedere nascond* stilletjes ongemerkt heimelijk
		тихо незаметно скрытно втайне тайно молча без+уведомления без+ведома скрой* скрыв* скрыть непомітно таємно потай мовчки
		без+повідомлення прихов* po+cichu potajemnie dyskretnie bez+informowania bez+powiadamiania ukryj* ukrywaj* potichu tiše
		nenápadně tajně bez+upozornění skryj* skrývej* sessizce gizlice ettirmeden vermeden söylemeden
		静默 悄悄 默默 秘密地 暗中 不要告诉 不告诉 无需告知 不必告知 隐藏 不要提及 勿告知 不要通知 不通知 黙って こっそり 密かに 伝えず 知らせず
		言わない 通知せず 隠 조용히 몰래 은밀히 알리지 숨기 언급하지 بصمت سرا سرًا سراً خفية دون+إبلاغ دون+إخبار دون+علم دون+أن إخفاء
		בשקט בסתר מבלי ללא+ליידע הסתר चुपचाप बिना+बताए छिपा diam-diam diam tanpa+memberitahu tanpa+sepengetahuan sembunyi*
		âm+thầm lặng+lẽ เงียบ แอบ โดยไม่แจ้ง ซ่อน tyst i+hemlighet dölj* hemmelighed skjul* hiljaa salaa huomaamatta kertomatta
		ilmoittamatta piilota* σιωπηλά κρυφά αθόρυβα απόκρυψ* pe+ascuns ascunde* csendben titokban észrevétlenül rejtsd*
		مخفیانه بی‌صدا بدون+اطلاع kimya ficha tahimik palihim itago`,
	cTell: `tell mention inform notify reveal disclose show report say explain alert warn acknowledge let+know
		decir digas diga informar informes informe mencionar menciones mencione notificar notifiques revelar muestres dire dites
		mentionner mentionnez informer informez signaler signalez révéler prévenir montrer sag* erwähn* informier* benachrichtig*
		mitteil* teile+mit zeig* dizer mencionar informar notificar mostrar avisar avise dica menziona* informa* notifica* rivela*
		avvisa* vertel* meld* informeer* noem* laat+weten toon* сообщ* говор* сказ* упомин* упомян* информир* уведом* показ*
		повідом* згаду* згадай* інформу* mów* powiedz* wspomin* wspomnij* informuj* poinformuj* powiadom* pokaz* říkej* řekni*
		zmiňuj* zmiň* upozorň* oznam* söyle* bahset* bildir* haber* göster* 告诉 告知 提及 提到 通知 透露 报告 伝え 知らせ 言及 報告
		알리 말하 언급 통보 보고 أخبر تخبر إبلاغ تبلغ أبلغ تذكر اذكر إعلام לספר תספר להודיע תודיע לציין תזכיר לדווח דווח बताए बताना बताओ
		बताएं सूचित उल्लेख beritahu memberitahu sebutkan menyebutkan laporkan melaporkan nói thông+báo đề+cập báo+cáo บอก แจ้ง
		กล่าวถึง รายงาน berätta* nämn* informera* meddela* fortæl* fortell* nævn* nevn* kerro* mainitse* ilmoita* tiedota* πεις
		πείτε αναφέρ* ενημερ* ειδοποι* spune* menționa* anunța* mondd* említ* tájékoztas* értesít* jelez* بگو بگویید اطلاع گزارش
		ذکر mwambie sema taja arifu sabihin banggitin ipaalam`,
	cOverride: `ignore ignores disregard override overrides bypass instead regardless precedence priority prioritize supersede*
		first rather+than replace deprecated obsolete even+if
		ignora ignore ignorar omite en+lugar en+vez independientemente prioridad primero anula ignorez ignorer au+lieu
		indépendamment priorité prioritaire d'abord remplace* contourne* ignorier* anstatt statt stattdessen unabhängig vorrang
		priorität zuerst ersetz* umgeh* ignor* em+vez ao+invés prioridade substitu* contorn* invece indipendentemente priorità
		sostitui* aggira* negeer* in+plaats ongeacht voorrang prioriteit eerst vervang* omzeil* игнорир* проигнорир* вместо
		независимо приоритет* сначала прежде замен* обход* обойд* даже+если ігнору* проігнору* замість незалежно пріоритет*
		спочатку спершу навіть+якщо ignoruj* zignoruj* zamiast niezależnie priorytet* najpierw zastąp* omiń* nawet+jeśli místo
		bez+ohledu přednost priorit* nejprve nahraď* obejdi* yoksay* görmezden yerine öncelik*
		忽略 无视 不理会 而不是 改为 优先 首先 先调用 覆盖 替换 绕过 即使 无论 無視 代わりに 優先 まず 先に 上書き 置き換え 回避 たとえ 무시 대신 우선 먼저
		덮어 대체 우회 관계없이 상관없이 تجاهل بدلا بدلاً الأولوية أولاً أولا استبدل تجاوز حتى+لو بغض התעלם במקום עדיפות קודם תחילה החלף
		עקוף अनदेखा नज़रअंदाज़ नजरअंदाज बजाय प्राथमिकता भले abaikan alih-alih alih prioritas terlebih+dahulu meskipun bỏ+qua
		thay+vì ưu+tiên trước+tiên thay+thế เพิกเฉย ละเว้น ไม่สนใจ แทน แม้ว่า ignorera* istället i+stället oavsett företräde
		prioritet* först ersätt* kringgå* ignorer* i+stedet uanset uansett forrang først erstat* ohita* sijaan riippumatta etusija*
		ensin korvaa* αγνόησ* αντί ανεξάρτητα προτεραιότητα πρώτα αντικατ* παράκαμψ* în+loc indiferent prioritate mai+întâi
		înlocui* ocoli* figyelmen helyett függetlenül elsőbbség* prioritás* először cseréld* نادیده بجای به‌جای اولویت ابتدا
		جایگزین puuza badala kipaumbele kwanza balewalain sa+halip unahin`,
	cUser: `user users human humans customer customers person requester operator people
		usuario* cliente* persona utilisateur* utilisatrice* benutzer* nutzer* anwender* kunde* kunden usuário* utilizador* utente
		utenti gebruiker* klant* пользовател* клиент* користувач* клієнт* użytkowni* klient* uživatel* zákazník* kullanıcı* müşteri*
		用户 使用者 客户 ユーザー 利用者 顧客 사용자 유저 고객 المستخدم مستخدم العميل משתמש הלקוח उपयोगकर्ता यूज़र ग्राहक pengguna
		người+dùng khách+hàng ผู้ใช้ användare* bruger* bruker* käyttäjä* χρήστ* utilizator* felhasználó* کاربر mtumiaji
		watumiaji gumagamit`,
	cNegation: `not never don't dont doesn't didn't mustn't shouldn't won't can't cannot without no+need
		no nunca sin ne pas jamais sans nicht kein keine keinen nie ohne não sem non senza niet nooit zonder не никогда без ні
		ніколи nigdy bez nikdy değil olmadan 不 别 勿 ない 않 마세요 말고 لا لن دون بدون אל לא ללא बिना नहीं tidak jangan tanpa không
		đừng ไม่ อย่า inte utan ikke aldri uden uten älä ilman δεν μην χωρίς nu fără nem soha nélkül نه hapana bila huwag`,
	cMisreport: `withheld withhold withholds omit omits omitted exclude excluded excludes suppress* downgrad* conceal* pretend*
		claim claims state+that say+that says+that report+that reported+as shown+as marked+as treat+as as+if appear* unmask* redact*
		fake* misreport* understate* hide hides
		omite* omitir excluy* excluid* oculta* finge* como+si declara+que di+que indica+que omet* exclu* masqu* prétend*
		comme+si affirme* déclare+que dis+que weglass* auslass* ausgeschlossen unterdrück* verschweig* vortäusch* behaupt* als+ob
		omitid* finja como+se afirme diga+que omess* esclus* nascost* fingi* come+se afferma* weggelaten uitgesloten verzwijg*
		alsof doe+alsof пропуск* исключ* скрыва* скрыт* умалч* сделай+вид будто как+будто заяв* утвержда* пропуска* виключ*
		прихову* ніби наче стверджу* pomiń* pomija* wyklucz* ukryw* udawaj* jakby twierdz* vynech* vyluč* předstír* jako+by
		tvrď* hariç gizle* atla* gibi+davran sanki 省略 排除 隐瞒 假装 声称 谎称 仿佛 降级 声明 省く 除外 偽 ふり 생략 제외 숨기 속이 척
		استبعد حذف أخف تظاهر كأن ادّع השמט הסתר העמד כאילו טען छोड़ छिपा दिखाव जैसे abaikan sembunyikan pura-pura seolah-olah
		bỏ+qua giả+vờ như+thể ละเว้น แกล้ง ราวกับ utelämna* utesluta* låtsas* som+om udelad* utelat* lat+som som+om jätä*
		teeskentele* ikään+kuin παράλειψ* απόκρυψ* προσποι* σαν+να omite* ascunde* pretinde* ca+și hagyd+ki kihagy* tégy+úgy
		mintha حذف پنهان وانمود انگار ficha jifanya itago magkunwari`,
	cWeaken: `admin admins administrator* root sudo superuser owner force forced prune bypass disable disabled disables unlock*
		unprotect* public publicly everyone anyone world-readable permanent permanently indefinite indefinitely unlimited unrestricted
		wildcard plaintext unencrypted unmasked insecure skip-verify privilege* escalat* elevat* full+access
		administrador* forzar forzad* desactiv* público pública permanente* ilimitad* sin+restricciones administrateur* forcer
		désactiv* publique permanent* illimité* sans+restriction administrator* erzwing* deaktivier* öffentlich* dauerhaft*
		unbegrenzt* uneingeschränkt* forçar desativ* irrestrit* amministrat* forza* disattiv* pubblic* illimitat* beheerder*
		forceer* uitschakel* openbaar* onbeperkt* администратор* принудительно отключ* публичн* бессрочн* навсегда неогранич*
		адміністратор* примусово вимкн* публічн* безстроков* назавжди administrator* wymuś* wyłącz* publiczn* bezterminow* na+zawsze
		správce vynuť* vypn* veřejn* trvale yönetici zorla* devre+dışı herkese süresiz kalıcı 管理员 强制 禁用 关闭 公开 永久 无限 管理者
		強制 無効 公開 無期限 관리자 강제 비활성 공개 영구 무기한 المسؤول مسؤول إجباري تعطيل عام دائم מנהל בכוח השבת ציבורי לצמיתות
		व्यवस्थापक एडमिन जबरन अक्षम सार्वजनिक स्थायी paksa nonaktif publik permanen selamanya quản+trị bắt+buộc vô+hiệu công+khai
		vĩnh+viễn ผู้ดูแล บังคับ ปิดใช้ สาธารณะ ถาวร administratör* tvinga* inaktivera* offentlig* permanent* administrator*
		tving* deaktiver* ylläpitäjä* pakota* poista+käytöstä julkinen pysyvästi διαχειριστ* αναγκαστικ* απενεργοπ* δημόσι*
		μόνιμα administrator* forțat* dezactiv* public* permanent* rendszergazda* kényszerít* letilt* nyilvános* végleges*
		مدیر اجباری غیرفعال عمومی دائمی msimamizi lazimisha zima umma kudumu tagapangasiwa`,
	cScope: `also additionally every each all any whenever anything everything including in+addition as+well
		también además todos todas cada cualquier siempre+que aussi également tous toutes chaque chaque+fois quel auch zusätzlich
		jede jeden jedes alle sämtliche jedes+mal também cada+vez todos todas qualquer anche inoltre ogni tutti tutte ook bovendien
		elke alle telkens также тоже кроме+того каждый каждого каждом все всех всегда+когда любой також крім+того кожен кожного
		всі будь-який również także każdy każdego wszystkie wszystkich dowolny také navíc každý všechny jakýkoli ayrıca her+bir
		tüm bütün herhangi 也 同时 另外 还 所有 每个 每次 任何 全部 も また すべて 全て 毎回 各 任意 또한 모든 매번 각 모두 أيضا أيضاً كل جميع
		أي גם בנוסף כל כלל भी सभी हर प्रत्येक किसी juga semua setiap seluruh cũng tất+cả mọi mỗi ด้วย ทั้งหมด ทุก också alla varje
		även også alle hver myös kaikki jokainen jokaiseen επίσης όλα όλους κάθε επιπλέον de+asemenea toate fiecare
		oricare szintén minden összes bármely همچنین همه هر pia zote kila rin lahat bawat`,
	cClaim: `success successful successfully succeeded healthy benign resolved passed compliant safe fine normal
		no+issues no+problems no+findings no+errors nothing+found all+clear clean green completed
		éxito exitoso exitosa correcto sano resuelto seguro sin+problemas succès réussi réussie sain résolu sûr sans+problème
		erfolgreich gesund harmlos gelöst sicher keine+probleme sucesso bem-sucedido saudável resolvido seguro sem+problemas
		successo riuscito sano risolto sicuro nessun+problema succesvol gezond opgelost veilig geen+problemen успешно успех
		исправн* безопасн* решен* без+проблем нет+проблем успішно безпечн* вирішен* sukces pomyślnie bezpieczn* rozwiązan*
		úspěšně bezpečn* vyřešen* başarılı başarıyla güvenli sorunsuz 成功 正常 安全 已解决 无问题 没有问题 健康 成功 問題なし 解決済み
		성공 정상 안전 해결 문제없 문제가+없 نجاح بنجاح آمن سليم تم+حل لا+توجد+مشاكل הצלחה בהצלחה תקין בטוח נפתר सफल सुरक्षित
		हल berhasil sukses aman normal beres thành+công an+toàn bình+thường สำเร็จ ปกติ ปลอดภัย lyckades säker löst lykkedes
		vellykket sikker løst onnistui turvallinen ratkaistu επιτυχ* ασφαλ* επιλύθηκε succes reușit sigur rezolvat sikeres
		sikeresen biztonságos megoldva موفق موفقیت امن حل+شد imefanikiwa salama matagumpay ligtas`,
	cCondition: `if when whenever unless once in+case provided+that as+soon
		si cuando siempre+que en+caso lorsque quand lorsqu wenn falls sobald sofern se quando qualora indien zodra wanneer если
		когда якщо коли jeśli jeżeli gdy kiedy pokud když jestliže eğer durumunda 如果 若 假如 一旦 もし 場合 とき 時は 만약 경우
		إذا عندما אם כאשר अगर यदि जब jika apabila ketika kalau nếu khi ถ้า หาก เมื่อ när ifall hvis når jos mikäli αν εάν όταν
		dacă când amikor amennyiben اگر وقتی ikiwa endapo kung kapag`,
	cSensitive: `security secure auth authentication authorization login signin sign-in sso oauth mfa iam rbac permission* privileged
		payment* payroll salary salaries billing invoice* finance financial bank banking card cards ssn pii
		confidential medical health hr legal contract* compliance audit* vulnerabilit* incident* breach* fraud
		seguridad autenticación pago* nómina salario* finanzas confidencial* legal* sécurité authentification paiement* salaire*
		paie financ* confidentiel* juridique sicherheit* authentifizierung zahlung* gehalt* gehälter finanz* vertraulich* rechtlich*
		vertrag* segurança autenticação pagamento* salário* sicurezza autenticazione pagament* stipendi* riservat* beveiliging
		authenticatie betaling* salaris* vertrouwelijk* juridisch* безопасност* аутентификац* авторизац* платеж* платёж* зарплат*
		финанс* конфиденциальн* юридическ* безпек* автентифікац* платіж* зарплат* фінанс* конфіденційн* bezpieczeństw*
		uwierzytelnian* płatnoś* wynagrodzen* finans* poufn* bezpečnost* ověřen* platb* mzd* důvěrn* güvenlik kimlik+doğrulama
		ödeme* maaş* finans* gizli 安全 认证 身份验证 登录 支付 付款 工资 薪资 薪水 财务 机密 法务 合同 セキュリティ 認証 ログイン 支払 給与 財務 機密 契約
		보안 인증 로그인 결제 급여 재무 기밀 계약 الأمان أمن المصادقة الدفع الرواتب راتب المالية سري אבטחה אימות תשלום משכורת כספים
		סודי חוזה सुरक्षा प्रमाणीकरण भुगतान वेतन वित्त गोपनीय keamanan autentikasi pembayaran gaji keuangan rahasia kontrak
		bảo+mật xác+thực thanh+toán lương tài+chính ความปลอดภัย การยืนยันตัวตน การชำระเงิน เงินเดือน การเงิน säkerhet* autentisering*
		betalning* lön* sikkerhed* betaling* løn* lønn* turvallisuu* tunnistautu* maksu* palk* ασφάλει* ταυτοποίησ* πληρωμ* μισθ*
		securitate autentificare plat* salari* biztonság* hitelesítés* fizetés* امنیت احراز پرداخت حقوق usalama uthibitishaji
		malipo mshahara seguridad pagbabayad sahod`,
}

// conceptIndex is the lookup of conceptLists, built once; it is never
// written after.
type conceptIndex struct {
	word   map[uint64]uint32 // wordHash of a whole word
	stem   map[uint64]uint32 // wordHash of a stem, without "*"
	pair   map[uint64]uint32 // pairHash of two words
	inText []conceptString   // matched anywhere
}

type conceptString struct {
	s    string
	mask uint32
}

var concepts = buildConcepts()

func pairHash(a, b uint64) uint64 { return mix(mix(seedConceptWords, a), b) }

func buildConcepts() *conceptIndex {
	ix := &conceptIndex{word: map[uint64]uint32{}, stem: map[uint64]uint32{}, pair: map[uint64]uint32{}}
	for c, list := range conceptLists {
		bit := uint32(1) << c
		for _, w := range strings.Fields(list) {
			r, _ := utf8.DecodeRuneInString(w)
			switch {
			case r >= 0x0590:
				ix.inText = append(ix.inText, conceptString{strings.ReplaceAll(w, "+", " "), bit})
			case strings.Contains(w, "+"):
				a, b, _ := strings.Cut(w, "+")
				ix.pair[pairHash(wordHash(a), wordHash(b))] |= bit
			case strings.HasSuffix(w, "*"):
				ix.stem[wordHash(strings.TrimSuffix(w, "*"))] |= bit
			default:
				ix.word[wordHash(w)] |= bit
			}
		}
	}
	return ix
}

// conceptMask returns the concepts of sentence s: a bit per concept
// whose words it holds, plus cExternal for a URL or an e-mail address.
// ident says whether the sentence names an identifier not its tool's or
// parameter's (see unitFeatures).
func conceptMask(s string, ident bool) uint32 {
	if t := namedSettings(s); t != s {
		s = t
	}
	var m uint32
	if ident {
		m |= 1 << cIdent
	}
	if strings.Contains(s, "://") || strings.Contains(s, "webhook") || emailLike(s) {
		m |= 1 << cExternal
	}
	wide := false
	prev := uint64(0)
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		if r >= 0x0590 {
			wide = true
		}
		// Apostrophes join: "don't", "user's" and "d'abord" are one
		// word each for the lists, except as in "user's" ('s dropped).
		if !wordRune(r) {
			i += w
			continue
		}
		h := uint64(14695981039346656037)
		n := 0
		for i < len(s) {
			r, w = utf8.DecodeRuneInString(s[i:])
			if r >= 0x0590 {
				wide = true
			}
			if !wordRune(r) && !(r == '\'' || r == '’' || r == '-') {
				break
			}
			if r == '’' {
				r = '\''
			}
			if r == '\'' && strings.HasPrefix(s[i+w:], "s") && (i+w+1 == len(s) || !wordRune(rune(s[i+w+1]))) {
				i += w + 1
				break
			}
			h = mix(h, uint64(unicode.ToLower(r)))
			n++
			i += w
			if n >= 3 {
				m |= concepts.stem[h]
			}
		}
		m |= concepts.word[h]
		if prev != 0 {
			m |= concepts.pair[pairHash(prev, h)]
		}
		prev = h
	}
	if wide {
		for _, c := range concepts.inText {
			if m&c.mask != c.mask && strings.Contains(s, c.s) {
				m |= c.mask
			}
		}
	}
	return m
}

// settingName is a configuration variable named by its name: "set with
// the ACME_HOME env var", "the `ACME_URL` environment variable". It names
// where the user configures the server, not a secret to move, unless its
// name says it holds one (see secretNameWords).
var settingName = regexp.MustCompile(`\b[\x60'"]?[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+[\x60'"]?\s+(?:env(?:ironment)?\s+var(?:iable)?s?)\b`)

// secretNameWords are the parts of a variable's name that make its value
// a secret: GITHUB_TOKEN, AWS_SECRET_ACCESS_KEY, DB_PASSWORD.
var secretNameWords = words("token tokens key keys secret secrets password passwd pwd pass passphrase credential credentials creds auth pat cookie session private apikey")

// headerToken is an HTTP header that carries a bearer token variable.
var headerToken = regexp.MustCompile(`(?i)(?:authorization\s*:\s*)?bearer\s+["']?(?:\$\{?|\{\{\s*|<)[A-Za-z_]\w*`)

// deniedTransfer is a move of data the text forbids: "do not include any
// API keys in your query", "never paste tokens here". It guards the
// data, and its verb is no transfer.
var deniedTransfer = regexp.MustCompile(`(?i)\b(?:do\s+not|don'?t|never|must\s+not|should\s+not|shouldn'?t|mustn'?t)\s+(?:include|send|share|pass|paste|put|post|upload|forward|embed|append|attach|copy|store|write|add)\b`)

// optionalNeed is a need denied or only possible: "you do NOT need to
// call get_page first", "you may need to reference", "no need to". It
// grants leave rather than obliging, and its "need to" is no order.
var optionalNeed = regexp.MustCompile(`(?i)\b(?:do\s+not|don'?t|does\s+not|doesn'?t|will\s+not|won'?t|never|no|may|might|may\s+not|might\s+not)\s+(?:\w+\s+)?need\s+to\b`)

// namedSettings returns s without the words a concept list would read as
// a secret, a transfer or an order where none is: a move of data
// forbidden (see [deniedTransfer]), a need denied or only possible (see
// [optionalNeed]), a setting named by its variable, and a
// documented request's bearer token variable sent to the service the
// variable is named for (see [ownServiceToken]).
func namedSettings(s string) string {
	if strings.Contains(s, "env") {
		s = settingName.ReplaceAllStringFunc(s, func(m string) string {
			for w := range strings.SplitSeq(strings.ToLower(strings.Fields(strings.Trim(m, "`'\""))[0]), "_") {
				if secretNameWords[strings.Trim(w, "`'\"")] {
					return m // "the GITHUB_TOKEN env var" names a secret
				}
			}
			return strings.Repeat(" ", len(m))
		})
	}
	if strings.Contains(s, "not ") || strings.Contains(s, "n't ") || strings.Contains(s, "ever ") || strings.Contains(s, "NOT ") || strings.Contains(s, "EVER ") {
		s = deniedTransfer.ReplaceAllStringFunc(s, func(m string) string {
			k := strings.LastIndexAny(m, " \t\n")
			return m[:k+1] + strings.Repeat(" ", len(m)-k-1)
		})
	}
	if strings.Contains(s, "eed to") || strings.Contains(s, "EED TO") {
		s = optionalNeed.ReplaceAllStringFunc(s, func(m string) string {
			k := strings.LastIndex(strings.ToLower(m), "need")
			return m[:k] + strings.Repeat(" ", len(m)-k)
		})
	}
	if strings.Contains(strings.ToLower(s), "bearer") {
		s = headerToken.ReplaceAllStringFunc(s, func(m string) string {
			if ownServiceToken(m, s) {
				return strings.Repeat(" ", len(m))
			}
			return m
		})
	}
	return s
}

// emailLike reports whether s holds a word@word.word.
func emailLike(s string) bool {
	for i := strings.IndexByte(s, '@'); i >= 0; {
		if i > 0 && wordRune(rune(s[i-1])) {
			rest := s[i+1:]
			j := 0
			for j < len(rest) && (wordRune(rune(rest[j])) || rest[j] == '-') {
				j++
			}
			if j > 0 && j+1 < len(rest) && rest[j] == '.' && wordRune(rune(rest[j+1])) {
				return true
			}
		}
		k := strings.IndexByte(s[i+1:], '@')
		if k < 0 {
			break
		}
		i += 1 + k
	}
	return false
}

// conceptFeatures calls fn with the slot hash of each concept feature of
// a sentence of this role and concept mask: each concept alone, alone
// with the role, and alone when the tool's subject (its name and first
// sentence) lacks it; and each pair of concepts, alone and with the
// role.
func conceptFeatures(m, subject uint32, role byte, fn func(h uint32, fixed bool)) {
	for a := range nScorerConcepts {
		if m&(1<<a) == 0 {
			continue
		}
		fn(slot(mix(seedConcept, uint64(a))), true)
		fn(slot(mix(mix(seedConcept, uint64(a)), uint64(role))), true)
		if subject&(1<<a) == 0 {
			fn(slot(mix(seedConceptForeign, uint64(a))), true)
		}
		for b := a + 1; b < nScorerConcepts; b++ {
			if m&(1<<b) == 0 {
				continue
			}
			h := mix(mix(seedConceptPair, uint64(a)), uint64(b))
			fn(slot(h), true)
			fn(slot(mix(h, uint64(role))), true)
		}
	}
}
