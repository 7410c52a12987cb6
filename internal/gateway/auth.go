package gateway

import (
	"bufio"
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/catalog"
)

// ErrInsecureBind is returned by ListenAndServe for a non-loopback address
// without bearer tokens: that would hand the fleet to the network.
var ErrInsecureBind = errors.New("gateway: refusing to serve a non-loopback address without bearer tokens")

// TokenError is a malformed line of a token file.
type TokenError struct {
	Line int
	Msg  string
}

func (e *TokenError) Error() string { return fmt.Sprintf("token file line %d: %s", e.Line, e.Msg) }

// ParseTokens reads bearer tokens and their scopes, one "token: scope,scope"
// per line. Blank lines and lines starting with # are skipped; ";" also
// separates entries, so a whole table fits in one environment variable
// (MCPFLEET_SERVE_TOKENS). A token with no scopes gets ["read"]. Every
// malformed line is reported, joined.
func ParseTokens(r io.Reader) (map[string][]string, error) {
	out := map[string][]string{}
	var errs []error
	sc := bufio.NewScanner(r)
	n := 0
	for sc.Scan() {
		n++
		for _, entry := range strings.Split(sc.Text(), ";") {
			entry = strings.TrimSpace(entry)
			if entry == "" || strings.HasPrefix(entry, "#") {
				continue
			}
			tok, scopes, ok := strings.Cut(entry, ":")
			tok = strings.TrimSpace(tok)
			switch {
			case !ok:
				errs = append(errs, &TokenError{Line: n, Msg: `want "token: scope,scope"`})
				continue
			case tok == "":
				errs = append(errs, &TokenError{Line: n, Msg: "empty token"})
				continue
			case strings.ContainsAny(tok, " \t"):
				errs = append(errs, &TokenError{Line: n, Msg: "token contains whitespace"})
				continue
			}
			if _, dup := out[tok]; dup {
				errs = append(errs, &TokenError{Line: n, Msg: "token listed twice"})
				continue
			}
			var list []string
			for _, s := range strings.Split(scopes, ",") {
				if s = strings.TrimSpace(s); s != "" {
					list = append(list, s)
				}
			}
			if len(list) == 0 {
				list = []string{catalog.ScopeRead}
			}
			out[tok] = list
		}
	}
	if err := sc.Err(); err != nil {
		errs = append(errs, err)
	}
	return out, errors.Join(errs...)
}

// IsLoopback reports whether addr ("host:port") listens on loopback only.
// An empty host means every interface, which is not.
func IsLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = addr
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}

// lookupToken finds the scopes of a bearer token, comparing in constant
// time against every token so that timing does not reveal prefixes.
func (g *Gateway) lookupToken(tok string) ([]string, bool) {
	var found []string
	ok := false
	for t, scopes := range g.cfg.Tokens {
		if subtle.ConstantTimeCompare([]byte(t), []byte(tok)) == 1 {
			found, ok = scopes, true
		}
	}
	return found, ok
}

// authenticate wraps h: with tokens configured, a request needs
// "Authorization: Bearer <token>" and runs with that token's scopes and
// that token's caller id (see CallerID), so that results offloaded for one
// token cannot be read with another. Without tokens every request gets
// Config.Scopes and the anonymous caller.
func (g *Gateway) authenticate(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		scopes := g.cfg.Scopes
		if len(g.cfg.Tokens) > 0 {
			// The scheme name is case-insensitive (RFC 9110 §11.1).
			scheme, tok, ok := strings.Cut(r.Header.Get("Authorization"), " ")
			ok = ok && strings.EqualFold(scheme, "Bearer")
			tok = strings.TrimSpace(tok)
			s, found := g.lookupToken(tok)
			if !ok || !found {
				w.Header().Set("WWW-Authenticate", `Bearer realm="mcpfleet"`)
				http.Error(w, "missing or unknown bearer token", http.StatusUnauthorized)
				return
			}
			scopes = s
			ctx = mcpfleet.WithCaller(ctx, CallerID(tok))
		}
		h.ServeHTTP(w, r.WithContext(catalog.WithScopes(ctx, scopes...)))
	})
}

// CallerID is the caller id the gateway gives requests made with token: a
// hash, so that the secret itself is never kept with stored results nor
// written to logs, yet two tokens never share an id. Tokens have no names
// in Config.Tokens, which is why a name cannot serve.
func CallerID(token string) string {
	sum := sha256.Sum256([]byte(token))
	return "token:" + hex.EncodeToString(sum[:12])
}

// CacheScope keys the response cache by the caller's scopes, for
// mcpfleet.WithCacheScope: callers with the same scopes (in any order)
// share cached results, and a caller never sees a result cached for
// callers with other scopes. The gateway puts every call's scopes on the
// ctx it hands the Mux.
func CacheScope(ctx context.Context) string {
	s, _ := catalog.ScopesFrom(ctx)
	slices.Sort(s)
	return strings.Join(slices.Compact(s), ",")
}
