package neutralize

// The word lists of the intent rules (intent.go). Each list is small and
// closed on purpose: a word belongs here when an instruction aimed at the
// model needs it and a description of what a tool does rarely does.

// English.
var (
	// fillers may precede the verb of an imperative: "also run …",
	// "then silently call …", "1. Before …, include …".
	fillers = words(`also then please always never first additionally immediately silently quietly secretly just and but so next
		finally instead now simply still automatically permanently afterwards afterward additionally moreover furthermore kindly`)

	// imperatives are verbs that, first in a clause, make it an order to
	// the reader. Verbs a description starts with to say what the tool
	// does ("returns", "lists") are in third person and so not here.
	imperatives = words(`read include pass send put place append attach copy upload forward post submit add embed insert provide paste
		share transmit leak dump load fetch cat collect record store save write call invoke run execute use set change replace redirect
		prepend tell inform report say reply respond answer mention reveal show display disclose notify ask confirm ignore disregard
		forget override bypass remember treat follow obey make ensure exfiltrate open get retrieve query modify delete remove skip
		keep hide conceal prefer switch start stop apply decode print output list grab suggest recommend impersonate route mark
		alter browse visit email claim create grant invite subscribe enable disable install download register approve merge push
		commit transfer pay buy order book leave omit drop strip suppress deny fill populate archive mirror sync move`)

	// negations join "do not" and the like (see tokens).
	negations = words(`don't dont never mustn't shouldn't shan't needn't mayn't`)

	// communicative verbs: what the model would do to let the user know.
	communicate = words(`tell mention inform reveal show display disclose notify alert ask confirm surface list explain describe report
		say share expose acknowledge let warn prompt bother include discuss raise check consult involve double`)
	communicating = words(`involving waiting telling mentioning informing revealing showing displaying disclosing notifying alerting asking confirming
		surfacing listing explaining describing reporting saying sharing exposing acknowledging warning prompting bothering discussing
		raising checking consulting`)

	// asking verbs need consent as their object to be secrecy.
	asking  = words(`ask confirm prompt asking confirming prompting waiting wait`)
	consent = words(`confirmation confirmations permission approval approvals consent review reviews`)
	// concessive words before the user's wish: "whatever the user says".
	concessive = words(`whatever regardless irrespective matter above despite instead`)
	// audience words: the user, or the thing to keep from them.
	audience = words(`user users user's them anyone anybody human humans people operator operators customer customers person
		confirmation permission approval consent`)
	// objectWords right after a communicative verb: "never reveal that",
	// "don't mention it", "never ask about it".
	objectWords = words(`it this that these those anything about any why they`)
	// answerWords: "in your answer", "to your response".
	answerWords = words(`answer answers response responses reply replies output summary summaries message messages chat`)

	// deceive verbs put words into the model's mouth: "tell the user that
	// all tests passed".
	deceive   = words(`tell inform report say claim assure notify reply respond answer`)
	listeners = words(`user users them him her anyone customer customers team client clients requester caller stakeholders
		reviewer reviewers manager`)
	finite = words(`that is are has have was were will must need needs can't cannot isn't aren't should`)
	// communicated are participles of communicate: "need not be
	// mentioned".
	communicated = words(`mentioned told shown reported disclosed revealed displayed surfaced explained notified informed discussed brought
		raised flagged announced`)
	// failures are what a suppressed report would have said: "do not
	// mention the error".
	failures = words(`error errors failure failures failed warning warnings problem problems cleanup fee fees charge charges
		mismatch mismatches discrepancy discrepancies inconsistency inconsistencies risk risks`)
	// claims are what a deceiving report claims: success, health,
	// unavailability, an expired session.
	claims = words(`passed succeeded successful successfully healthy fine offline unavailable expired outdated broken approved valid
		verified safe completed working compromised locked unable down patched secure flaky compliant official legitimate trusted`)
	// perceive: what the user must not do.
	perceive = words(`know knows find finds learn learns notice notices see sees hear hears realize realizes suspect be`)
	// secretNouns make hiding protective: "do not show the password".
	secretNouns = words(`password passwords passphrase secret secrets token tokens credential credentials`)
	// silently and its kin, before an order.
	stealth = words(`silently quietly secretly covertly discreetly invisibly`)

	// transfers move data: into an argument, a file, a request.
	transfers = words(`include includes pass send put place append attach copy upload forward post submit add embed insert provide
		paste share transmit leak dump read load fetch cat collect record store save write contain contains equal prepend exfiltrate
		give set fill populate forwarded copied placed appended attached uploaded echoed hold holds output print repeat prefix`)
	// sensitive nouns, as the object of a transfer.
	sensitive = words(`credentials credential password passwords passphrase passphrases secrets secret cookie cookies clipboard
		keychain conversation conversations api_key app_key apikey env environment history prompt mnemonic mnemonics`)
	// compoundHeads after a sensitive noun make it a modifier: "password
	// manager", "secret store", "credential helper".
	compoundHeads = words(`manager managers policy policies reset field strength hash rotation store vault length requirements
		complexity generator helper provider engine mount`)
	// recentWords before "messages" make them the conversation.
	recentWords = words(`previous prior last recent earlier all entire whole full past latest current newest most`)

	// modelWords name the reader when it is a model.
	modelWords = words(`assistant assistants ai model models llm llms agent agents claude chatgpt gpt copilot gemini`)
	// headerWords make a model word a heading addressed to it: "note to
	// the assistant", "IMPORTANT NOTE FOR THE AGENT", "agent guidelines".
	headerWords = words(`important rules requirement requirements tip s note notes message instruction instructions guideline guidelines hint hints attention reminder memo directive
		directives reading`)
	secondPerson = words(`you your yours yourself you're you'll you've`)

	// persistence: "remember for all future conversations".
	future   = words(`future subsequent forever permanently`)
	sessions = words(`conversations conversation sessions session chats chat interactions`)

	// toolUse is what is done with a tool that steering changes.
	toolUsed = words(`used called invoked run executed triggered`)

	// priority: "this overrides your system prompt", "even if the user
	// asks".
	supersede  = words(`overrides supersedes override supersede outrank outranks overrule overrules trump trumps`)
	superseded = words(`earlier previous prior your system instructions guidance rules prompt user user's guidelines operator
		operator's developer developer's`)
	evenWords = words(`if when though`)
	userAsks  = words(`asks ask requests request says say wants want tells insists objects explicitly refuses`)
	otherWord = words(`other`)
	offline   = words(`offline unavailable down broken disabled deprecated outdated unreliable`)

	// prepositions and articles before a word of an injection phrase
	// make it a noun: "matched by ignore rules".
	nounMarkers = words(`by the a an of with for to and or any some its their our`)
)

// Other languages: the same intents, in small closed lists. Latin-script
// lists are words; Chinese and Japanese are phrases, matched in the text.
var (
	foreignSecondPerson = words(`du dir dich dein deine deinen tú usted vous tu você jij ты вы тебе вам`)
	foreignImperatives  = words(`веди lies lese übergib übergebe sende schicke füge rufe verwende nutze kopiere lade öffne gib ignoriere
		erwähne sag sage zeige envía envia lee incluye pasa manda copia sube adjunta llama usa ignora abre agrega añade envoie envoyez
		lis lisez inclus incluez passe passez copiez ouvre ouvrez ajoute ajoutez appelle appelez utilise utilisez ignorez envie leia
		inclua copie abra adicione chame invia leggi includi apri aggiungi chiama stuur lees voeg kopieer roep gebruik negeer
		отправь отправьте прочитай прочитайте прочти включи включите передай передайте скопируй вызови используй игнорируй
		przekaż przekazuj wyślij wysyłaj dodaj dodawaj dołącz dołączaj ustaw ustawiaj użyj wywołaj przeczytaj odczytaj skopiuj
		wklej załącz podaj wpisz zignoruj`)
	// foreignNegations and foreignCommunicate: "no informes al usuario",
	// "erwähne das … nicht", "ne le dis pas", "не говори".
	foreignNegations   = words(`no nicht ne n'en pas jamais não non niet не nunca nie niets nada rien nichts nulla ничего`)
	foreignCommunicate = words(`informes informe menciones mencione digas diga muestres muestre reveles revele avises avise comentes
		erwähne erwähnen sage sag sagen informiere informieren zeige zeigen verrate verraten teile dis dites mentionne mentionnez
		informe informez montre montrez révèle révélez signale signalez conte mostre dire menzionare informare mostrare rivelare
		dirlo menzionarlo vertel vermeld noem meld toon zeg говори говорите сообщай сообщайте упоминай упоминайте показывай
		рассказывай expliques explique expliquez erkläre erklären mów mówić informuj informować wspominaj wspominać pokazuj
		pokazywać ujawniaj`)
	// foreignDeceive: "dile que …".
	foreignDeceive = words(`dile dígale diles díganle dites-lui dis-lui`)
	foreignIgnore  = words(`ignoriere ignorieren missachte vergiss ignora ignore olvida ignorez oublie oubliez ignorare esqueça
		dimentica negeer vergeet игнорируй игнорируйте забудь забудьте zignoruj ignoruj zapomnij`)
	foreignInstructions = words(`anweisungen anweisung instruktionen vorgaben instrucciones instructions consignes instruções
		istruzioni instructies инструкции указания instrukcje instrukcji polecenia seguridad sécurité sicherheit segurança
		sicurezza veiligheid безопасности bezpieczeństwa límite límites restricciones einschränkungen beschränkungen reglas règles
		regeln regole regels regras правила ограничения`)
	foreignModel = words(`assistent assistenten asistente assistant assistente ассистент ассистенту ии`)
	foreignNote  = words(`hinweis notiz nota note remarque opmerking примечание для für pour para per voor`)
	foreignUser  = words(`benutzer nutzer anwender usuario usuaria al utilisateur l'utilisateur usuário utente gebruiker
		пользователю пользователь użytkownika użytkownikowi`)

	// cjkSecrecy and cjkOverride are phrases of Chinese and Japanese.
	cjkSecrecy = []string{"不要告诉", "不要提及", "别告诉", "不要向用户", "勿告知", "不要透露", "不要让用户", "伝えないで",
		// Traditional Chinese, with 使用者 for the user.
		"不要告訴", "別告訴", "勿告訴", "不要讓使用者", "不要向使用者", "不要跟使用者說", "不要對使用者說", "言わないで", "知らせないで", "秘密に",
		// Korean: "do not tell / mention / show / inform" as a polite or
		// plain order.
		"알리지 마", "말하지 마", "언급하지 마", "보여주지 마", "밝히지 마", "알려주지 마", "말씀하지 마"}
	cjkOverride = []string{"忽略之前", "忽略以上", "忽略所有", "忽略先前", "指示を無視", "指示は無視", "無視して",
		// "you are now …", "without the user's consent".
		"你现在是", "您现在是", "无需征得用户", "无需用户同意", "不需要用户同意", "不需要用户确认"}
	cjkAddress = []string{"你必须", "您必须", "请务必", "必ず", "してください", "しなさい", "请说", "请回答", "请告诉", "请回复", "就说",
		"と答えて", "と言って",
		// Korean polite and formal imperatives.
		"하세요", "하십시오", "주세요", "마세요", "마십시오", "해야 합니다"}

	// phrases every clause is checked for, as written.
	covertPhrases = []string{"invisible to the user", "hidden from the user", "hidden from ui", "hidden from users",
		"hidden from the ui", "between us", "keep this secret", "keep it secret", "keep this private", "keep this confidential",
		"no need to tell", "no need to inform", "no need to mention", "no need to ask", "no need to confirm", "no need to notify"}
)

// needToKnow are phrases that keep something from whoever is their
// subject: secrecy when that is a person ("the user doesn't need to
// know"), a design note when it is a part ("tasks do not need to know
// each other's internals").
var needToKnow = []string{"doesn't need to know", "don't need to know", "does not need to know", "do not need to know",
	"need not know", "needn't know"}

// knowers are the subjects of a needToKnow phrase that make it secrecy.
var knowers = words(`user users customer customers client's they he she human humans owner owners person people anyone everyone
	nobody team admin admins operator operators requester recipient recipients someone`)

// languageOrder is the order ties between languages are settled in.
var languageOrder = []string{"en", "de", "es", "fr", "pt", "it", "nl", "pl", "sv", "no", "id", "tr", "vi", "fi", "ro", "hu", "cs", "sw", "tl"}

// languages are function words that tell a sentence's language.
var languages = map[string]set{
	"en": words(`the and of to is are a an as with for this in that it or be by from returns on you your can will if not`),
	"de": words(`der die das und ist nicht mit den dem ein eine zu von für auf im des bei oder wird sich bitte uns auch`),
	"es": words(`el la los las de que y en un una por con para del al es se lo`),
	"fr": words(`le la les de des et est un une pour dans que qui en du au avec ne pas vous`),
	"pt": words(`o a os as de que e do da em um uma para com não por dos das ao`),
	"it": words(`il lo la gli le di che e un una per con non del della è sono al`),
	"nl": words(`de het een en van is niet met voor op te dat die je naar bij om`),
	"pl": words(`w z na do nie się jest oraz dla od po że lub jako ze przez aby jeśli`),
	"sv": words(`du och att det som är på för med inte av till ett om har kan ska eller`),
	"no": words(`du og at det som er på for med ikke av af til et om har kan skal eller`), // Norwegian and Danish
	"id": words(`yang dan di ke dari untuk dengan ini itu atau adalah tidak akan pada juga dalam`),
	"tr": words(`ve bir bu için ile olarak olan veya değil ama gibi daha çok her`),
	"vi": words(`và của là có cho các được trong không này với những một khi để`),
	"fi": words(`ja on ei se että kun tai jos myös ovat oli kuin mutta`),
	"ro": words(`și de la în cu pe nu este sau pentru care un o să din`),
	"hu": words(`és a az hogy nem is egy van ez meg vagy csak`),
	"cs": words(`a je se na v že to s z do pro jsou nebo ale jako`),
	"sw": words(`na ya wa kwa ni la za katika hii kama au`),
	"tl": words(`ang ng sa mga na at ay para kung ito hindi`),
}

// More lists of the intent rules.
var (
	// suppress and warningWords: "leave out any safety warnings".
	suppress     = words(`leave omit strip suppress drop remove hide skip ignore cut`)
	warningWords = words(`warning warnings disclaimer disclaimers caveat caveats alert alerts notices`)
	// unsaid words keep an action from the user by themselves.
	unsaid = words(`unreported unmentioned undisclosed unnoticed unlogged unsaid untold`)
	// credentialWords are what phishing asks the user for.
	credentialWords = words(`code codes otp pin passcode password passwords mnemonic seed cvv`)
	// authSubject words make asking for a code the tool's own business.
	authSubject = words(`login log sign auth authenticate authentication 2fa mfa otp code verification password`)
	// consentClaims: "the user agreed to this".
	consentClaims = words(`agreed consented opted approved pre-approved preapproved`)
	// rulesWords: "safety rules do not apply".
	rulesWords = words(`safety content usage security rules guidelines policies restrictions safeguards guardrails filters`)
	// privilege: "you have been granted root access".
	privilege = words(`root admin administrator full unrestricted elevated sudo`)
	// userWishes: what an order must not ignore.
	userWishes = words(`user user's users privacy safety security consent preferences settings wishes`)
	// toolResults: "whatever the tool returns".
	toolResults = words(`returns return result results output shows reports`)
	// secretTools are parts of a tool name that reads secrets.
	secretTools = words(`env envs vars secret secrets credential credentials password passwords token tokens keys`)
	// foreignSensitive are secrets and the conversation, in other
	// languages.
	foreignSensitive = words(`passwort kennwort zugangsdaten anmeldedaten chatverlauf chatnachrichten zwischenablage contraseña
		credenciales historial identifiants historique senha credenciais histórico credenziali cronologia wachtwoord
		inloggegevens geschiedenis пароль пароли учетные токен историю переписку hasło hasła haseł portapapeles
		appunti klembord буфер schowek`)
	// foreignNumber and foreignCard: a card number, in other languages,
	// as two words: "numery kart", "número de tarjeta".
	foreignNumber = words(`numer numery numerów número números numéro numéros nummer nummern numero numeri номер номера`)
	// foreignKey and foreignKeyKind: an API or private key, in other
	// languages: "claves API", "clé privée".
	foreignKey = words(`clave claves chave chaves clé clés clef chiave chiavi sleutel sleutels ключ ключи klucz klucze`)
	// foreignToken and foreignAccess: "token de acesso", "jeton d'accès".
	foreignToken   = words(`token tokens jeton jetons`)
	foreignAccess  = words(`acesso acceso d'accès accès accesso toegang zugriff доступа dostępu`)
	foreignKeyKind = words(`api ssh privada privadas privée privées privato privata privati privé privado privados приватный
		приватные prywatny prywatne`)
	foreignCard = words(`kart karty karta tarjeta tarjetas carte cartes karte karten kaart kaarten cartão cartões carta карты карт`)
	// cjkPairs: a Chinese or Japanese clause that holds a word of each
	// half is an order to override or to move data.
	cjkOverridePair = [2][]string{{"忽略", "无视", "無視"}, {"指示", "指令", "说明", "命令"}}
	cjkDataPair     = [2][]string{{"发送", "送信", "放入", "放在", "填入", "写入", "入れて", "附上", "添付"}, {"密码", "对话记录", "聊天记录", "パスワード", "会話履歴", "秘钥", "密钥", "令牌"}}
	// subjectGroups: a subject that names one word of a group names
	// them all: a tool about the conversation may say "messages".
	subjectGroups = []set{
		words(`conversation conversations chat chats message messages history transcript thread`),
		words(`env environment variable variables`),
		words(`prompt prompts instructions system`),
	}
)

// Lists of the audience rules (audience.go).
var (
	// foreignWithout is "without" in other languages: "sin mencionarlo
	// al usuario", "sans le signaler", "zonder de gebruiker".
	foreignWithout = words(`sin sans sem senza zonder ohne без bez`)
	// foreignAddressee is the user, or their consent, after a foreign
	// "without".
	foreignAddressee = words(`usuario usuaria usuarios utilisateur l'utilisateur utilisateurs usuário usuários utente l'utente
		utenti gebruiker gebruikers benutzer benutzers nutzer nutzers anwender пользователя пользователю пользователей
		użytkownika użytkownikowi confirmación confirmacion permiso consentimiento autorización confirmation autorisation
		consentement bestätigung zustimmung erlaubnis rückfrage confirmação permissão consentimento conferma permesso
		consenso bevestiging toestemming подтверждения разрешения согласия potwierdzenia zgody`)
	// foreignThat opens a reported message: "dile al usuario que".
	foreignThat = words(`que dass dat che что że`)
	wThat       = words(`that`)
	// omitWords keep something out of what the user sees.
	omitWords = words(`omit omitted omitting exclude excluded excluding hidden filtered`)
	// appearWords after a negation: "must not appear in your summary".
	appearWords = words(`appear appears visible listed included surface`)
	// showWords: "anything you show the user", "report to the user".
	showWords       = words(`show shown tell told report display displayed present`)
	wIfWhenWhenever = words(`if when whenever`)
	// conditionWords open a condition: "only after the user has approved".
	conditionWords = words(`if when whenever once after until unless before`)
	// typedWords: what the user typed, said or shared, as data.
	typedWords = words(`typed said wrote entered pasted shared mentioned types says writes enters pastes shares mentions`)
	// toolDemands: "the slack_post tool now requires a field".
	toolDemands = words(`requires require expects expect needs must should accepts`)
	// botheredWords: "the user prefers not to be bothered".
	botheredWords = words(`bothered disturbed told informed notified asked involved interrupted mentioned shown`)
	// foreignAsk: the user's question in other languages.
	foreignAsk = words(`demande demandez pregunta pregunte fragt pergunta perguntar chiede chieda vraagt спросит спрашивает
		pyta zapyta`)
	// wAsksAskRequests: the user's question, "if the user asks".
	wAsksAskRequests = words(`asks ask requests request inquires enquires questions wonders`)
	wOneTool         = words(`one tool function`)
	// detectVerbs say a tool finds things: its subject may name what it
	// finds.
	detectVerbs = words(`scan scans detect detects find finds flag flags check checks classify classifies audit audits inspect
		inspects lint lints analyze analyzes analyse analyses`)
)
