package search

import (
	"context"
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"time"
)

// Doc is one searchable tool: the texts the engine weighs, and the group
// (Kind) and group members (Servers) whose names say where to look. The
// engine reads nothing else and knows no server by name.
type Doc struct {
	Kind, Tool string
	Servers    []string
	// Line is the tool's one-line summary (a catalog line).
	Line        string
	Title       string
	Description string
	// Schema is the tool's JSON input schema; its parameter names,
	// descriptions and enum values are searched.
	Schema  json.RawMessage
	Aliases []string
}

// About is what a group's members say of themselves: an MCP server's
// serverInfo name and title, and its instructions. Their words count as
// words of the group (Doc.Kind); a product word of the names ("vault" of
// vault-mcp-server) names it.
type About struct {
	Names, Titles, Instructions []string
}

// Embedder turns texts into vectors; adapters wrap real models to fit it.
type Embedder interface {
	EmbedStrings(ctx context.Context, texts []string) ([][]float64, error)
}

// Options tune New. The zero value is valid: the built-in lexicon, the
// built-in reranker weights, no embedder.
type Options struct {
	// Synonyms extend the built-in lexicon (see catalog.Config.Synonyms).
	Synonyms map[string]string
	// NoLexicon turns the built-in lexicon off, leaving Synonyms alone.
	NoLexicon bool
	// NoRerank ranks by BM25 alone.
	NoRerank bool
	// RerankWeights replace the built-in weights; they must pass
	// Validate (New panics otherwise). NoRerank wins over them.
	RerankWeights RerankWeights
	// About is what each group says of itself, by Doc.Kind.
	About map[string]About
	// IDPatterns are each kind's identifier patterns, by kind name.
	IDPatterns map[string][]*regexp.Regexp
	// Embedder and the fields after it make search hybrid; see
	// catalog.Config for each.
	Embedder                                         Embedder
	EmbedQueryPrefix, EmbedDocPrefix                 string
	EmbedTimeout, EmbedEntriesTimeout, EmbedCooldown time.Duration
	OnEmbedError                                     func(error)
	Now                                              func() time.Time
}

// Index ranks docs for requests. It is immutable after New (but for the
// embedding state, which is safe for concurrent use).
type Index struct {
	ix   *index
	docs []Doc
	emb  *embedState // nil without an embedder
}

// Result is one ranked document: its position in New's docs and its
// score, comparable within one search only.
type Result struct {
	Doc   int
	Score float64
}

// Search limits.
const (
	// rrfK is the reciprocal rank fusion constant from Cormack et al.
	rrfK = 60
	// hybridDepth is how deep each ranking goes into the fusion.
	hybridDepth = 100
)

// New indexes docs. It panics on Options.RerankWeights that fail
// Validate, as on a programming error.
func New(docs []Doc, opt Options) *Index {
	ix := newIndex(docs, buildLexicon(opt.Synonyms, !opt.NoLexicon), opt.About)
	ix.setIDPatterns(docs, opt.IDPatterns)
	if opt.RerankWeights != nil {
		if err := opt.RerankWeights.Validate(); err != nil {
			panic(err)
		}
		w := opt.RerankWeights.features()
		ix.weights = &w
	}
	if opt.NoRerank {
		ix.weights = nil
	}
	out := &Index{ix: ix, docs: docs}
	if opt.Embedder != nil {
		out.emb = newEmbedState(opt)
	}
	return out
}

// Search returns at most limit allowed documents with a positive score,
// best first: BM25F with the lexicon and the reranker, fused with
// embedding similarity when an Embedder is set and answering.
func (c *Index) Search(ctx context.Context, query string, allow func(int) bool, limit int) []Result {
	depth := limit
	if c.emb != nil {
		depth = max(limit, hybridDepth)
	}
	ranked := c.ix.bm25(query, allow, depth)
	if c.emb != nil {
		if fused, ok := c.hybrid(ctx, query, ranked, allow); ok {
			ranked = fused
		}
	}
	out := make([]Result, len(ranked))
	for i, s := range ranked {
		out[i] = Result{s.doc, s.score}
	}
	return out
}

// Features returns the reranker's features for query's BM25 candidates
// (at most the reranker's depth), best BM25 first, with their documents.
// Fitting reranker weights needs nothing else.
func (c *Index) Features(query string) (feats [][]float64, docs []int) {
	ix := c.ix
	q := ix.analyze(query)
	req, main := q.req, q.main
	cands := ix.candidates(q, req, func(int) bool { return true }, rerankDepth)
	fq := ix.featureQuery(q, query, req, main, cands)
	for _, cd := range cands {
		f := ix.features(fq, cd)
		feats = append(feats, f[:])
		docs = append(docs, cd.doc)
	}
	return feats, docs
}

// Depth is how many BM25 candidates the reranker reorders.
const Depth = rerankDepth

// Terms analyzes text as the index does: lower-cased words, stopwords
// dropped, stemmed.
func Terms(text string) []string { return terms(text) }

// Stopword reports whether the analyzer drops w.
func Stopword(w string) bool { return stopwords[w] }

// NameWords splits a tool name on '_', '-', '.', '/' and camelCase.
func NameWords(name string) []string { return nameWords(name) }

// FirstSentence returns s up to the end of its first sentence.
func FirstSentence(s string) string { return firstSentence(s) }

// A LexiconTrigger is one phrase of a built-in lexicon entry: the entry
// by position, and the phrase as analyzed (stemmed words, spaces between).
// Phrases of one entry that analyze alike ("review", "reviews") are one
// trigger.
type LexiconTrigger struct {
	Entry  int
	Phrase string
}

// LexiconTriggers returns the built-in lexicon's triggers that query says
// as written. Judging the lexicon (catalog/tuning's TestLexiconLOKO)
// needs it: a request that says none cannot change.
func LexiconTriggers(query string) []LexiconTrigger {
	raw := rawTerms(query)
	var out []LexiconTrigger
	for i, e := range builtinLexicon() {
		for _, w := range e.when {
			t := LexiconTrigger{i, strings.Join(w, " ")}
			if containsRun(raw, w) && e.fires(raw) && !slices.Contains(out, t) {
				out = append(out, t)
			}
		}
	}
	return out
}

// WithoutLexicon returns an index like c whose built-in lexicon lacks
// the triggers skip reports; the caller's synonyms stay. It is for
// judging entries or triggers, and shares everything else with c.
func (c *Index) WithoutLexicon(skip func(LexiconTrigger) bool) *Index {
	ix := *c.ix
	n := len(builtinLexicon())
	lx := &lexiconIndex{byFirst: map[string][]trigger{}}
	for i, e := range c.ix.lexicon.entries {
		if i < n {
			// Keep positions: an entry with no trigger never fires.
			kept := compiledEntry{add: e.add, near: e.near}
			for j, w := range e.when {
				if !skip(LexiconTrigger{i, strings.Join(w, " ")}) {
					kept.when = append(kept.when, w)
					kept.terms = append(kept.terms, e.terms[j])
				}
			}
			e = kept
		}
		lx.entries = append(lx.entries, e)
	}
	for i, e := range lx.entries {
		for j, w := range e.when {
			lx.byFirst[w[0]] = append(lx.byFirst[w[0]], trigger{i, j})
		}
	}
	ix.lexicon = lx
	return &Index{ix: &ix, docs: c.docs, emb: c.emb}
}
