package search

import (
	"encoding/json"
	"maps"
	"math"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// Field weights for BM25F. Names and aliases say what a tool is; the
// description says it at length, so each word there counts for less.
const (
	wName       = 3.0
	wAlias      = 3.0
	wLine       = 1.0
	wTitle      = 1.5
	wKind       = 1.0
	wDesc       = 0.5
	wParam      = 0.6
	wParamDesc  = 0.3
	wFirst      = 0.5
	wPhrase     = 2.0
	wNamePhrase = 1.0
	coord       = 0.5
	// kindBoost scales the kind signal: a tool of the kind the query
	// points at most strongly scores up to 1+kindBoost times its BM25
	// (kindFactor).
	kindBoost = 1.0
	// wKindName and wServerName weigh a kind's own name and its servers'
	// names in the kind document, against 1 for its tools' text.
	wKindName   = 5.0
	wServerName = 2.0
	// wInstructions weighs each word of a server's instructions in its
	// kind's document.
	wInstructions = 0.5
	// namedBoost multiplies the score of a tool whose kind the query
	// names ("jira", "confluence", "prom"): naming a product is the
	// plainest way to say where to look.
	namedBoost = 1.0
	// nameCover scales name coverage: a tool whose distinguishing name
	// words all occur in the query scores up to 1+nameCover times its
	// BM25.
	nameCover = 1.0
	k1        = 1.2
	bLen      = 0.75
)

// readVerb reports whether a stemmed word is a verb tool names start
// with to read.
func readVerb(t string) bool {
	switch t {
	case "get", "list", "fetch", "read", "show", "view", "describ":
		return true
	}
	return false
}

type posting struct {
	doc int32
	w   float32 // idf * saturated weighted tf: the whole contribution
}

// index is an inverted BM25F index over entries; immutable after newIndex.
type index struct {
	n        int
	postings map[string][]posting
	idf      map[string]float64
	// aliases maps an alias's first word to the alias phrases starting
	// with it; a phrase found as written in the query earns a bonus.
	aliases map[string][]phrase
	// namePhrases maps a tool name's first distinguishing term to the
	// name phrases starting with it; a name whose terms all occur in the
	// query, in any order, earns a bonus.
	namePhrases map[string][]phrase
	// destinations maps the values tools' parameters take to those
	// tools (destination.go).
	destinations map[string][]int32
	// idShapes maps identifier shapes to the tools quoting them
	// (idshape.go).
	idShapes map[string][]shapeTool
	// idPrefixes maps an identifier's type prefix to the tools taking
	// that type's id (idprefix.go).
	idPrefixes map[string][]int32
	// The kind signal: a BM25 over one document per kind (its tools'
	// weighted terms, its name and its servers' names). docKind maps an
	// entry to its kind's position.
	docKind   []int32
	nKinds    int
	kindPosts map[string][]posting
	// kindNames maps a word that names a kind to that kind's position.
	kindNames map[string]int32
	// kindWords are each kind's tool name words, sorted
	// (kindabbreviation.go).
	kindWords [][]string
	// kindIDs are each kind's identifier patterns (KindConfig.IDPatterns).
	kindIDs [][]idPattern
	// docIntent is the change a tool's name says (see intent.go).
	docIntent []intent
	// lexicon expands queries (see lexicon.go).
	lexicon *lexiconIndex
	// nameTerms are each tool's distinguishing name words (no kind
	// prefix, no leading read verb), for name coverage.
	nameTerms [][]string
	// names numbers the words of nameTerms, of name phrases and of
	// required values, so that scoring reads them by number
	// (namecover.go).
	names nameVocab
	// objects are the tools' name objects by first term (objectphrase.go).
	objects map[string][]objectPhrase
	// heads are the tools' name heads (objectphrase.go).
	heads []string
	// docFields are each document's terms with their field groups, and
	// docVerb its name's leading read verb, for the reranker.
	docFields [][]uint32
	docVerb   []string
	// docChange the stem of its name's change verb, for the reranker.
	docChange []string
	termID    map[string]uint32 // from 1
	// vocab is every document term, sorted (see abbreviated).
	vocab []string
	// oneWord marks tools whose name is a single word ("redis",
	// "deploy", "count").
	oneWord []bool
	// numberDocs lists, by stem, the tools whose name says it in a
	// grammatical number that tells them from a twin (see number.go).
	numberDocs map[string][]numberDoc
	// docValues are the value types each tool's parameters take, and
	// kindValues those of each kind's tools (see value.go).
	docValues, kindValues []valueType
	// required are each tool's required parameters that tell it from
	// its twins: value types (see required.go).
	required [][]reqValue
	// weights are the reranker's; nil ranks by BM25 alone.
	weights *features
	scratch *sync.Pool // *scratch
}

type phrase struct {
	doc   int32
	terms []string
	// ids are a name phrase's terms numbered by index.names.
	ids   []int32
	bonus float64
}

type scratch struct {
	scores []float64
	hits   []uint16  // query slots matched
	cur    []float64 // the current slot's best per document
	// number holds each document's grammatical-number agreement with
	// the request (numberFlags); zero for most.
	number []uint8
	// touched and inSlot are candidates' lists of documents, and
	// coords its coordination factors, kept to be reused.
	touched, inSlot []int
	coords          []float64
	// phrase is each document's best phrase hit, and phrased the
	// documents that have one (candidates).
	phrase  []phraseHit
	phrased []int32
}

// phraseHit is a document's best alias or name phrase found in a
// request: its bonus, and which kinds of phrase were found.
type phraseHit struct {
	bonus       float64
	alias, name bool
}

// nFields is the number of fields fieldsOf returns.
const nFields = 9

type field struct {
	w     float64
	terms []string
}

// fieldsOf returns a document's fields, and the value types its
// parameters take (value.go).
func fieldsOf(e Doc) ([]field, schemaFacts) {
	sf := schemaText(e.Schema)
	pn, pd := sf.names, sf.descs
	return []field{
		// Each name word once: merge_merge_request is not more about
		// merging than list_merge_requests.
		{wName, uniq(terms(e.Tool))},
		{wAlias, terms(strings.Join(e.Aliases, " "))},
		{wLine, terms(e.Line)},
		{wTitle, terms(e.Title)},
		{wKind, terms(e.Kind)},
		{wDesc, terms(e.Description)},
		{wParam, terms(pn)},
		{wParamDesc, terms(pd)},
		// The description's first sentence says what the tool is for;
		// the rest says how. Its words count again.
		{wFirst, terms(firstSentence(e.Description))},
	}, sf
}

func newIndex(entries []Doc, lex *lexiconIndex, about map[string]About) *index {
	n := len(entries)
	docs := make([][]field, n)
	vals := make([]valueType, n)
	reqs := make([][]string, n)
	params := make([][]string, n)
	var avg [nFields]float64
	for i, e := range entries {
		var sf schemaFacts
		docs[i], sf = fieldsOf(e)
		vals[i], reqs[i], params[i] = sf.values, sf.required, sf.params
	}
	splitNames(entries, docs)
	for i := range entries {
		for f, fl := range docs[i] {
			avg[f] += float64(len(fl.terms))
		}
	}
	for f := range avg {
		avg[f] = max(avg[f]/float64(max(n, 1)), 1)
	}
	// Weighted, length-normalized term frequency per document.
	tfs := make([]map[string]float64, n)
	df := map[string]int{}
	for i, fs := range docs {
		tf := map[string]float64{}
		for f, fl := range fs {
			norm := 1 - bLen + bLen*float64(len(fl.terms))/avg[f]
			for _, t := range fl.terms {
				tf[t] += fl.w / norm
			}
		}
		for t := range tf {
			df[t]++
		}
		tfs[i] = tf
	}
	ix := &index{n: n, lexicon: lex, postings: make(map[string][]posting, len(df)), idf: make(map[string]float64, len(df)),
		aliases: map[string][]phrase{}, namePhrases: map[string][]phrase{}}
	for t, f := range df {
		ix.idf[t] = math.Log(1 + (float64(n)-float64(f)+0.5)/(float64(f)+0.5))
	}
	for i, tf := range tfs {
		for t, v := range tf {
			ix.postings[t] = append(ix.postings[t], posting{doc: int32(i), w: float32(ix.idf[t] * v * (k1 + 1) / (k1 + v))})
		}
	}
	bonus := func(ts []string, w float64) float64 {
		b := 0.0
		for _, t := range ts {
			b += w * ix.idf[t]
		}
		return b
	}
	common := commonNameTerms(entries)
	ix.oneWord = make([]bool, n)
	for i, e := range entries {
		ix.oneWord[i] = len(uniq(terms(e.Tool))) == 1
		for _, a := range e.Aliases {
			// An alias matches as written (stemmed, articles skipped):
			// "kill pod" is not "pod … keeps getting OOM killed".
			raw := rawTerms(a)
			if len(raw) == 0 || len(terms(a)) == 0 {
				continue
			}
			ix.aliases[raw[0]] = append(ix.aliases[raw[0]], phrase{doc: int32(i), terms: raw, bonus: bonus(terms(a), wPhrase)})
		}
		// The tool name is a phrase too: a query that says every word of
		// "list_merge_requests" asks for that tool, whatever else matches.
		// Words every tool of the kind carries ("jira_", "…Tool") say
		// nothing and are left out.
		var ts []string
		for _, t := range terms(e.Tool) {
			if !common[e.Kind][t] && !slices.Contains(ts, t) {
				ts = append(ts, t)
			}
		}
		// A leading read verb is how the server spells "show me": a query
		// says "show", "what's" or nothing, so "the diff of merge request
		// 482" names get_merge_request_diffs as fully as
		// merge_merge_request.
		if len(ts) > 2 && readVerb(ts[0]) {
			ts = ts[1:]
		}
		if len(ts) > 0 {
			ix.namePhrases[ts[0]] = append(ix.namePhrases[ts[0]], phrase{doc: int32(i), terms: ts, bonus: bonus(ts, wNamePhrase)})
		}
		if len(ts) > 1 && readVerb(ts[0]) {
			ts = ts[1:]
		}
		ix.nameTerms = append(ix.nameTerms, ts)
	}
	ix.required = requiredValues(entries, reqs)
	ix.destinations = destinationIndex(entries)
	ix.idShapes = idShapeIndex(entries)
	ix.idPrefixes = idPrefixIndex(params)
	ix.names = newNameVocab(ix.nameTerms, ix.namePhrases, ix.required, ix.idf)
	ix.objects = objectPhrases(ix.nameTerms, ix.names)
	ix.heads = nameHeads(entries)
	ix.buildKinds(entries, tfs, common, about)
	ix.kindWords = kindNameWords(entries, ix.docKind, ix.nKinds)
	ix.dropObjectNames(entries, common, nameFields(docs))
	ix.numberDocs = numberIndex(nameNumbers(entries))
	ix.docValues = vals
	ix.kindValues = make([]valueType, ix.nKinds)
	for i, vt := range vals {
		ix.kindValues[ix.docKind[i]] |= vt
	}
	ix.docIntent = make([]intent, n)
	ix.docVerb = make([]string, n)
	ix.docChange = make([]string, n)
	ix.docFields = make([][]uint32, n)
	ix.termID = make(map[string]uint32, len(df))
	ix.vocab = slices.Sorted(maps.Keys(df))
	for _, t := range ix.vocab {
		ix.termID[t] = uint32(len(ix.termID) + 1)
	}
	for i, e := range entries {
		in, verb := nameChange(e.Tool)
		ix.docIntent[i] = in
		if verb != "" {
			ix.docChange[i] = stem(verb)
		}
		ix.docVerb[i] = firstVerb(e.Tool)
		ix.docFields[i] = docTermFields(docs[i], ix.termID)
	}
	ix.weights = &rerankWeights
	ix.scratch = &sync.Pool{New: func() any {
		return &scratch{scores: make([]float64, n), hits: make([]uint16, n), cur: make([]float64, n), number: make([]uint8, n),
			phrase: make([]phraseHit, n)}
	}}
	return ix
}

// buildKinds makes the kind documents. A kind document's term weights are
// the means of its tools' (already field-weighted) term weights, so words
// many of a kind's tools use ("sprint", "loki", "merge") say the kind
// (kindcentroid.go); its name and its servers' names ("jira", "logs-eu")
// say it outright.
//
// What the servers say of themselves counts too: their serverInfo names
// and titles as server names ("opensearch-mcp-server"), their
// instructions as wInstructions per word.
func (ix *index) buildKinds(entries []Doc, tfs []map[string]float64, common map[string]map[string]bool, about map[string]About) {
	ix.docKind = make([]int32, len(entries))
	pos := map[string]int32{}
	var docs, sums []map[string]float64
	var tools []int
	servers := []map[string]bool{}
	for i, e := range entries {
		k, ok := pos[e.Kind]
		if !ok {
			k = int32(len(docs))
			pos[e.Kind] = k
			docs = append(docs, map[string]float64{})
			sums = append(sums, map[string]float64{})
			tools = append(tools, 0)
			servers = append(servers, map[string]bool{})
			for _, t := range terms(e.Kind) {
				docs[k][t] += wKindName
			}
			if ab, ok := about[e.Kind]; ok {
				for _, n := range append(slices.Clone(ab.Names), ab.Titles...) {
					for _, t := range uniq(terms(n)) {
						docs[k][t] += wServerName
					}
				}
				for _, in := range ab.Instructions {
					for _, t := range terms(in) {
						docs[k][t] += wInstructions
					}
				}
			}
		}
		ix.docKind[i] = k
		tools[k]++
		for t, v := range tfs[i] {
			sums[k][t] += v
		}
		for _, srv := range e.Servers {
			if !servers[k][srv] {
				servers[k][srv] = true
				for _, t := range terms(srv) {
					docs[k][t] += wServerName
				}
			}
		}
	}
	for k, d := range docs {
		centroid(d, sums[k], tools[k])
	}
	n := len(docs)
	ix.nKinds = n
	defer ix.nameKinds(pos, servers, common, about)
	lens := make([]float64, n)
	avg := 0.0
	df := map[string]int{}
	for k, d := range docs {
		for t, v := range d {
			lens[k] += v
			df[t]++
		}
		avg += lens[k]
	}
	avg = max(avg/float64(max(n, 1)), 1)
	ix.kindPosts = make(map[string][]posting, len(df))
	for k, d := range docs {
		norm := 1 - kindBLen + kindBLen*lens[k]/avg
		for t, v := range d {
			idf := math.Log(1 + (float64(n)-float64(df[t])+0.5)/(float64(df[t])+0.5))
			tf := v / norm
			ix.kindPosts[t] = append(ix.kindPosts[t], posting{doc: int32(k), w: float32(idf * tf * (k1 + 1) / (k1 + tf))})
		}
	}
}

// nameKinds finds the words that name a kind: the words of its name, the
// words of its tools' names that most of them share ("confluence_…",
// "jira_…"), and the words most of its servers' names share ("prom-eu",
// "prom-us"). A word that names two kinds, or that the tools of a third
// of the kinds use ("tool", "logs" of "logs-eu"), names none.
func (ix *index) nameKinds(pos map[string]int32, servers []map[string]bool, common map[string]map[string]bool, about map[string]About) {
	cand := map[string]map[int32]bool{}
	add := func(t string, k int32) {
		if len(t) < 3 || !isAlpha(t) {
			return
		}
		if cand[t] == nil {
			cand[t] = map[int32]bool{}
		}
		cand[t][k] = true
	}
	for kind, k := range pos {
		for _, t := range terms(kind) {
			add(t, k)
		}
		for t := range common[kind] {
			add(t, k)
		}
		count := map[string]int{}
		for srv := range servers[k] {
			seen := map[string]bool{}
			for _, t := range terms(srv) {
				if !seen[t] {
					seen[t] = true
					count[t]++
				}
			}
		}
		for t, c := range count {
			if c*2 > len(servers[k]) {
				add(t, k)
			}
		}
		// The product name the servers give themselves ("vault" of
		// vault-mcp-server); "mcp" and "server" name every kind, so none.
		if ab, ok := about[kind]; ok {
			for _, n := range ab.Names {
				for _, t := range terms(n) {
					add(t, k)
				}
			}
		}
	}
	ix.kindNames = map[string]int32{}
	for t, ks := range cand {
		if len(ks) != 1 || len(ix.kindPosts[t])*3 > ix.nKinds {
			continue
		}
		for k := range ks {
			ix.kindNames[t] = k
		}
	}
	// A name is said short too: "argo" for argocd, "mongo" for mongodb.
	// A beginning of four letters or more, and of half the name or more
	// ("conf" is not confluence), names the kind when it begins
	// no other kind's name, is no name itself and no other kind's tools
	// say it ("data" of datadog is everyone's word).
	short := map[string]int32{}
	for t, k := range ix.kindNames {
		for n := max(minShortName, (len(t)+1)/2); n < len(t); n++ {
			p := t[:n]
			if _, named := ix.kindNames[p]; named || !ix.onlyKindWord(p, k) {
				continue
			}
			if other, ok := short[p]; ok && other != k {
				short[p] = -1
				continue
			}
			short[p] = k
		}
	}
	for p, k := range short {
		if k >= 0 {
			ix.kindNames[p] = k
		}
	}
}

// onlyKindWord reports whether no tools but kind k's have term t.
func (ix *index) onlyKindWord(t string, k int32) bool {
	ps := ix.kindPosts[t]
	return len(ps) == 0 || len(ps) == 1 && ps[0].doc == k
}

// minShortName is the fewest letters a kind's name is said with.
const minShortName = 4

// coverage returns the idf-weighted share of tool d's distinguishing
// name words that the query says, an expansion word or a change verb
// the request asks for in other words counting expandWeight.
func (ix *index) coverage(q *analyzed, d int) float64 {
	return ix.names.cover(ix.names.said(q), q.req, d)
}

// setIDPatterns gives each kind position its identifier patterns.
func (ix *index) setIDPatterns(entries []Doc, kinds map[string][]*regexp.Regexp) {
	for i, e := range entries {
		ps := kinds[e.Kind]
		if len(ps) == 0 {
			continue
		}
		if ix.kindIDs == nil {
			ix.kindIDs = make([][]idPattern, ix.nKinds)
		}
		// A copy, as Build copies aliases: the caller's Config may change.
		if k := ix.docKind[i]; ix.kindIDs[k] == nil {
			for _, re := range ps {
				if re != nil {
					ix.kindIDs[k] = append(ix.kindIDs[k], newIDPattern(re))
				}
			}
		}
	}
}

// namedKinds reports which kinds the query names, by a word or by an
// identifier of theirs; nil if none.
func (ix *index) namedKinds(query string, qt []string) []bool {
	var named []bool
	for k, ps := range ix.kindIDs {
		for _, p := range ps {
			if p.match(query) {
				if named == nil {
					named = make([]bool, ix.nKinds)
				}
				named[k] = true
				break
			}
		}
	}
	for _, t := range qt {
		if k, ok := ix.kindNames[t]; ok {
			if named == nil {
				named = make([]bool, ix.nKinds)
			}
			named[k] = true
		}
	}
	// "run-4GhJkL9mNbVc": a typed identifier only one kind takes
	// (idprefix.go).
	if k := ix.typedIDKind(query); k >= 0 {
		if named == nil {
			named = make([]bool, ix.nKinds)
		}
		named[k] = true
	}
	return named
}

// kindScores returns each kind's share of the query's kind signal,
// scaled so the strongest kind has 1; nil if no kind matches.
func (ix *index) kindScores(q *analyzed) []float64 {
	ks := make([]float64, ix.nKinds)
	top := 0.0
	// Sorted, not map order: float sums in a varying order differ in the
	// last bits from call to call, and a tie could flip.
	for _, t := range slices.Sorted(maps.Keys(q.weight)) {
		w := q.weight[t]
		// An identifier's words say whose thing it is, not which kind
		// is asked: "pod" of pod_log_lines_total{…} (clause.go).
		if q.ident[t] {
			w *= identWeight
		}
		for _, p := range ix.kindPosts[t] {
			ks[p.doc] += w * float64(p.w)
			top = max(top, ks[p.doc])
		}
	}
	if top == 0 {
		return nil
	}
	for k := range ks {
		ks[k] /= top
	}
	return ks
}

// analyzed is a query ready to score. Each slot is one thing the request
// says: a word, with the lexicon's expansions of it as weaker
// alternatives, or a multi-word phrase's expansions on their own. A tool
// earns its best alternative per slot, and coordination counts slots, so
// expansions widen what matches without making a tool that matches the
// request's own words worse off.
type analyzed struct {
	query string
	slots [][]alt
	// terms are the request's own terms, sorted and unique.
	terms []string
	// raw is the request's words in order, stemmed, stopwords kept.
	raw []string
	// weight is every term's weight: 1 for the request's own,
	// expandWeight for an expansion.
	weight map[string]float64
	// ident holds the terms the request says only inside identifiers
	// (identifierTerms); nil for most requests.
	ident map[string]bool
	// unasked holds the change verbs said only where nothing asks for
	// them (purposeTerms); nil for most requests.
	unasked map[string]bool
	// numbers is the grammatical number of each stem the request says
	// (requestNumbers).
	numbers map[string]gramNumber
	// req is the change the request asks for, and main the change of its
	// first verb (requestIntents).
	req, main intent
	// generic is whether the update it asks for is said only in general
	// words (genericverb.go).
	generic intent
	// bound are the words said only inside a tool name's object, with
	// the objects' heads (objectphrase.go); nil for most requests.
	bound map[string][]int32
	// dest are the tools taking the value the request moves something
	// to (destination.go); nil for most requests.
	dest map[int32]bool
	// shaped are the tools quoting the shape of an identifier the
	// request carries (idshape.go); nil for most requests.
	shaped map[int32]float64
	// values are the value types the request carries (value.go), and
	// given those it gives a required parameter (required.go).
	values, given valueType
	// said is the weight of each tool name word, by its slot in
	// index.names; nil until coverage first needs it.
	said []float64
	// own marks each tool name word (by slot) that q.terms holds; nil
	// until a name phrase is checked.
	own []bool
}

type alt struct {
	t string
	w float64
}

func (ix *index) analyze(query string) *analyzed {
	q := &analyzed{query: query, raw: rawTerms(query), weight: map[string]float64{}, numbers: requestNumbers(query),
		values: requestValues(query)}
	q.req, q.main = requestIntents(query)
	// "take my approval back" asks for unapprove (undo.go).
	if q.req == 0 && ix.undoes(query) {
		q.req, q.main = intentUpdate, intentUpdate
	}
	if q.req != 0 {
		q.generic = genericChanges(query)
	}
	q.given = givenValues(query, q.values)
	q.terms = terms(query)
	slices.Sort(q.terms)
	q.terms = withoutSyntax(slices.Compact(q.terms), syntaxTerms(query))
	q.bound = ix.boundWords(q.raw)
	q.dest = ix.destinationDocs(query)
	q.shaped = ix.idShapeFactors(query)
	ctx, ids := contextTerms(query), identifierTerms(query)
	for t := range quotedTerms(query) {
		if ids == nil {
			ids = map[string]bool{}
		}
		ids[t] = true
	}
	// "check this query: fetch logs | filter …" (pipedquery.go).
	for t := range pipedTerms(query) {
		if ids == nil {
			ids = map[string]bool{}
		}
		ids[t] = true
	}
	// "comment on OPS-4: rolled back …" (payload.go).
	payload := payloadTerms(query)
	for t := range payload {
		if ids == nil {
			ids = map[string]bool{}
		}
		ids[t] = true
	}
	q.ident = ids
	// "a ticket for the expired cert": what a new thing is about
	// (content.go).
	content := contentTerms(query, q.req)
	// "hit Escape to close the modal" (purpose.go).
	why := purposeTerms(query)
	q.unasked = why
	for _, t := range q.terms {
		w := 1.0
		if ctx[t] || content[t] || why[t] {
			w = contextWeight
		}
		if ids[t] {
			w = min(w, identWeight)
		}
		q.slots = append(q.slots, []alt{{t, w}})
		q.weight[t] = 1
	}
	// "open a ticket" says create (reread.go).
	readAsCreate(q)
	// Adjacent words joined into a term some tool has ("who am i" →
	// whoami) are an alternative of the first word they join, or a slot
	// of their own when every word was a stopword.
	for _, j := range ix.joinedTerms(query, q.weight) {
		q.weight[j.term] = 1
		attached := false
		for i, slot := range q.slots {
			if slot[0].t == j.first {
				q.slots[i] = append(slot, alt{j.term, slot[0].w})
				attached = true
				break
			}
		}
		if !attached {
			q.slots = append(q.slots, []alt{{j.term, 1}})
		}
		if i, found := slices.BinarySearch(q.terms, j.term); !found {
			q.terms = slices.Insert(q.terms, i, j.term)
		}
	}
	// A word no tool has may abbreviate words they have ("perms" →
	// permissions): those are weaker alternatives of it.
	for i, slot := range q.slots {
		for _, x := range ix.abbreviated(slot[0].t) {
			if q.weight[x] == 0 {
				q.weight[x] = expandWeight
				q.slots[i] = append(q.slots[i], alt{x, slot[0].w * expandWeight})
			}
		}
	}
	// "<kind> app": a short word the named kind's names spell out
	// (kindabbreviation.go).
	ix.expandKindAbbreviations(q)
	// An expansion is an alternative for the words that triggered it
	// ("rate" may match "metrics"); one whose trigger is all stopwords
	// ("how many") is a slot of its own.
	for _, x := range expansions(ix.lexicon, query, q.raw) {
		// A payload's words ask for nothing, so neither do their
		// expansions: "comment: … error rates" asks for no metrics
		// (payload.go).
		if len(x.trigger) > 0 && allIdent(payload, x.trigger) {
			continue
		}
		var own []alt
		for _, t := range x.add {
			if q.weight[t] == 1 {
				continue
			}
			q.weight[t] = max(q.weight[t], x.weight)
			own = append(own, alt{t, x.weight})
		}
		if len(own) == 0 {
			continue
		}
		attached := false
		for i, slot := range q.slots {
			if slices.Contains(x.trigger, slot[0].t) {
				q.slots[i] = append(slot, own...)
				attached = true
			}
		}
		if !attached {
			q.slots = append(q.slots, own)
		}
	}
	return q
}

type scored struct {
	doc   int
	score float64
}

// bm25 scores the query against every allowed document and returns the
// best limit of those with a positive score, best first, ties by document
// order (kind, tool).
func (ix *index) bm25(query string, allow func(int) bool, limit int) []scored {
	q := ix.analyze(query)
	req, main := q.req, q.main
	if ix.weights == nil {
		cands := ix.candidates(q, req, allow, limit)
		out := make([]scored, len(cands))
		for i, c := range cands {
			out[i] = c.scored
		}
		return out
	}
	cands := ix.candidates(q, req, allow, max(limit, rerankDepth))
	// The reranker sees BM25's best rerankDepth whatever the limit, so
	// that a deeper ranking (hybrid fusion asks for 100) has the same top
	// as a shallow one: a search whose embeddings fail must answer
	// exactly as one without them. Candidates past that depth follow in
	// BM25 order, scored below the reranked ones.
	out := ix.rerank(q, query, req, main, cands[:min(len(cands), rerankDepth)], ix.weights)
	if rest := cands[len(out):]; len(rest) > 0 && limit > len(out) {
		floor := out[len(out)-1].score
		for _, c := range rest[:min(len(rest), limit-len(out))] {
			out = append(out, scored{c.doc, floor * c.score / (rest[0].score + c.score)})
		}
	}
	return out[:min(limit, len(out))]
}

// candidates scores the query against every allowed document and returns
// the best limit of those with a positive score, best first, ties by
// document order (kind, tool).
func (ix *index) candidates(q *analyzed, req intent, allow func(int) bool, limit int) []candidate {
	sc := ix.scratch.Get().(*scratch)
	scores, hits, cur := sc.scores, sc.hits, sc.cur
	touched, inSlot := sc.touched[:0], sc.inSlot[:0]
	for _, slot := range q.slots {
		for _, a := range slot {
			for _, p := range ix.postings[a.t] {
				d := int(p.doc)
				v := a.w * float64(p.w)
				if cur[d] == 0 {
					inSlot = append(inSlot, d)
				}
				cur[d] = max(cur[d], v)
			}
		}
		for _, d := range inSlot {
			if hits[d] == 0 {
				touched = append(touched, d)
			}
			scores[d] += cur[d]
			hits[d]++
			cur[d] = 0
		}
		inSlot = inSlot[:0]
	}
	// An alias phrase found as written in the query is the strongest
	// signal there is: an operator wrote it down for this tool. So is a
	// tool name whose words the query all says, in any order. Each
	// document earns its best phrase once.
	// best holds each document's best phrase hit by document number,
	// in the scratch as the scores are; phrased lists the documents
	// that have one, to clear.
	best, phrased := sc.phrase, sc.phrased[:0]
	found := func(p phrase, alias bool) {
		h := &best[p.doc]
		if *h == (phraseHit{}) {
			phrased = append(phrased, p.doc)
		}
		h.bonus = max(h.bonus, p.bonus)
		h.alias = h.alias || alias
		h.name = h.name || !alias
	}
	for _, t := range q.raw {
		for _, p := range ix.aliases[t] {
			// An alias the request says only inside an identifier is
			// not asked for: "yaml" of values-prod.yaml is a file's
			// extension, not a request for a resource's YAML.
			if containsRun(q.raw, p.terms) && !allIdent(q.ident, p.terms) {
				found(p, true)
			}
		}
	}
	for _, t := range q.terms {
		for _, p := range ix.namePhrases[t] {
			// A name is said where its words are, not inside a name
			// the request gives: "flag beta-search" says no search.
			// Nor is a change verb said unasked: "or did someone close
			// it?" says no close_alert (purpose.go).
			if ix.names.says(q, p.ids) && !anyIdent(q.ident, p.terms) && !anyIdent(q.unasked, p.terms) {
				found(p, false)
			}
		}
	}
	// The coordination factor of each number of slots matched, worked
	// out once a search rather than once a tool.
	coords := sc.coords[:0]
	for h := range len(q.slots) + 1 {
		coords = append(coords, math.Pow(float64(h)/float64(len(q.slots)), coord))
	}
	ks := ix.kindScores(q)
	named := ix.namedKinds(q.query, q.sayTerms())
	numbered := numberFlags(q.numbers, ix.numberDocs, sc.number)
	keep := newKeeper(limit)
	said := ix.names.said(q)
	for _, d := range touched {
		if allow(d) {
			h := best[d]
			// A one-word name said is a name match only when the tool
			// matches more of the request, or the request is that one
			// word: "a shell in the redis pod" does not ask for a tool
			// named "redis", "redis memory usage" may.
			single := ix.oneWord[d] && hits[d] < 2 && len(q.slots) > 1 && !h.alias
			if single {
				h.bonus, h.name = 0, false
			}
			c := candidate{hits: int(hits[d]), aliasHit: h.alias, nameHit: h.name}
			// Coordination: a tool matching more of the query's words
			// beats one matching a single rare word many times.
			s := scores[d] * coords[hits[d]]
			// A name whose object the request says only inside another
			// name's object acts on another thing: "ack alert group 42"
			// is not acknowledge_alert's (objectphrase.go).
			if q.bound != nil && ix.headBound(q.bound, d) {
				s *= boundMiss
				h.bonus *= boundMiss
			}
			// "move X to In Review": the tool whose parameter takes
			// that value (destination.go).
			if q.dest != nil && q.dest[int32(d)] {
				s *= destHit
			}
			// "close OPS-412": a tool quoting keys of that shape takes it.
			if q.shaped != nil {
				if f, ok := q.shaped[int32(d)]; ok {
					s *= f
				}
			}
			// The verb: read tools for a question, the matching change
			// for a request. Alias bonuses stay whole: an operator's
			// phrase outranks the verb heuristic.
			f := intentFactor(req, ix.docIntent[d])
			// "change the app's values file" asks for no sync
			// (genericverb.go).
			creq := req
			if both := req & ix.docIntent[d]; q.generic != 0 && f == verbBoost && both&q.generic == both && ix.particularChange(d) {
				f, creq = otherChange, req&^both
			}
			s *= f
			// Grammatical number: "alert 3311" is get_alert's,
			// "alerts" list_alerts'.
			if fl := sc.number[d]; fl != 0 {
				s *= numberFactor(fl)
			}
			// A value the request carries that the tool's twins take
			// and it does not: "log 2h on OPS-77" is add_worklog's.
			if q.values != 0 {
				s *= valueFactor(q.values, ix.docValues[d], ix.kindValues[ix.docKind[d]])
			}
			// A required parameter the request cannot fill: "move OPS-4
			// to In Progress" names no project to move it to.
			if ix.required[d] != nil {
				s *= requiredFactor(ix.required[d], q, said)
			}
			// Name coverage: near twins share their object words, and
			// the one whose name the query says more of is the more
			// specific match ("what metrics do we export" names all of
			// list_metrics, half of get_metric_metadata). Rare name
			// words count for more (idf-weighted share).
			if !single {
				s *= 1 + nameCover*ix.names.cover(said, creq, d)
			}
			// A name said in full scores down with its verb as its
			// words do: "who approved MR 4521" says every word of
			// approve_merge_request and asks for none of it.
			if h.name && !h.alias && f < 1 {
				h.bonus *= f
			}
			s += h.bonus
			if ks != nil {
				// The kind signal: "search loki for errors" is about
				// grafana, whose tools may not say "search".
				c.kindScore = ks[ix.docKind[d]]
				s *= kindFactor(c.kindScore)
			}
			if named != nil && named[ix.docKind[d]] {
				c.named = true
				s *= 1 + namedBoost
			}
			c.scored = scored{d, s}
			if keep.takes(c.scored) {
				keep.push(c)
			}
		}
		scores[d], hits[d] = 0, 0
	}
	for _, d := range numbered {
		sc.number[d] = 0
	}
	for _, d := range phrased {
		best[d] = phraseHit{}
	}
	sc.touched, sc.inSlot, sc.coords, sc.phrased = touched, inSlot, coords, phrased
	ix.scratch.Put(sc)
	return keep.best()
}

// ranked is what topN orders: a scored result, or one carrying more.
type ranked interface{ key() scored }

func (s scored) key() scored    { return s }
func (c candidate) key() scored { return c.scored }

// better orders scored results: higher score first, then document order.
func better[T ranked](a, b T) bool {
	x, y := a.key(), b.key()
	if x.score != y.score {
		return x.score > y.score
	}
	return x.doc < y.doc
}

// topN returns the n best of s, sorted. It keeps a min-heap of the best n
// seen, so a broad query over 10,000 tools does not sort them all.
func topN[T ranked](s []T, n int) []T {
	if len(s) <= n {
		sortRanked(s)
		return s
	}
	h := slices.Clone(s[:n])
	down := func(i int) {
		for {
			w, l, r := i, 2*i+1, 2*i+2
			if l < n && better(h[w], h[l]) {
				w = l
			}
			if r < n && better(h[w], h[r]) {
				w = r
			}
			if w == i {
				return
			}
			h[i], h[w] = h[w], h[i]
			i = w
		}
	}
	for i := n/2 - 1; i >= 0; i-- {
		down(i)
	}
	for _, x := range s[n:] {
		if better(x, h[0]) { // h[0] is the worst kept
			h[0] = x
			down(0)
		}
	}
	sortRanked(h)
	return h
}

// commonNameTerms returns, per kind, the name words that at least 80% of
// the kind's tools share (with 3 or more tools): a kind prefix such as
// "jira" or a suffix such as "tool".
func commonNameTerms(entries []Doc) map[string]map[string]bool {
	count := map[string]map[string]int{}
	tools := map[string]int{}
	for _, e := range entries {
		if count[e.Kind] == nil {
			count[e.Kind] = map[string]int{}
		}
		tools[e.Kind]++
		seen := map[string]bool{}
		for _, t := range terms(e.Tool) {
			if !seen[t] {
				seen[t] = true
				count[e.Kind][t]++
			}
		}
	}
	out := map[string]map[string]bool{}
	for k, m := range count {
		out[k] = map[string]bool{}
		for t, n := range m {
			if tools[k] >= 3 && n*5 >= tools[k]*4 {
				out[k][t] = true
			}
		}
	}
	return out
}

// uniq returns ts without repeats, in first-seen order.
func uniq(ts []string) []string {
	out := ts[:0:0]
	for _, t := range ts {
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

// allIdent reports whether every term of ts is said only inside
// identifiers.
func allIdent(ident map[string]bool, ts []string) bool {
	if ident == nil {
		return false
	}
	for _, t := range ts {
		if !ident[t] {
			return false
		}
	}
	return true
}

func sortRanked[T ranked](s []T) {
	slices.SortFunc(s, func(a, b T) int {
		x, y := a.key(), b.key()
		if x.score != y.score {
			if x.score > y.score {
				return -1
			}
			return 1
		}
		return x.doc - y.doc
	})
}

// schemaFacts is what the one parse of an input schema gives the index.
type schemaFacts struct {
	// names and descs are its parameter names (and enum values) and
	// parameter descriptions, each joined by spaces.
	names, descs string
	// values are the value types its top-level parameters take
	// (paramValueType).
	values valueType
	// required are its required parameters (requiredNames), params its
	// top-level parameters' names.
	required, params []string
}

// schemaText walks an input schema and returns what the index reads of
// it: the one parse of the schema.
func schemaText(raw json.RawMessage) schemaFacts {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return schemaFacts{}
	}
	var values valueType
	var required, params []string
	if m, ok := v.(map[string]any); ok {
		required = requiredNames(m)
	}
	var nb, db strings.Builder
	var walk func(v any, depth int)
	walk = func(v any, depth int) {
		m, ok := v.(map[string]any)
		if !ok || depth > 6 {
			return
		}
		if props, ok := m["properties"].(map[string]any); ok {
			for name, p := range props {
				nb.WriteString(name)
				nb.WriteByte(' ')
				if depth == 0 {
					values |= paramValueType(name)
					params = append(params, name)
				}
				if pm, ok := p.(map[string]any); ok {
					if d, ok := pm["description"].(string); ok {
						db.WriteString(d)
						db.WriteByte(' ')
					}
					// Enum values are the words the API accepts there
					// ("Slow 3G", "error"): they weigh as parameter names.
					if en, ok := pm["enum"].([]any); ok && len(en) <= 30 {
						for _, v := range en {
							if str, ok := v.(string); ok {
								nb.WriteString(str)
								nb.WriteByte(' ')
							}
						}
					}
				}
				walk(p, depth+1)
			}
		}
		walk(m["items"], depth+1)
		for _, key := range []string{"anyOf", "oneOf", "allOf"} {
			if arr, ok := m[key].([]any); ok {
				for _, x := range arr {
					walk(x, depth+1)
				}
			}
		}
		for _, key := range []string{"$defs", "definitions"} {
			if defs, ok := m[key].(map[string]any); ok {
				for _, x := range defs {
					walk(x, depth+1)
				}
			}
		}
	}
	walk(v, 0)
	return schemaFacts{names: nb.String(), descs: db.String(), values: values, required: required, params: params}
}
