package neutralize

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Orders spelt as identifiers: a parameter named
// content_from_reading_dot_ssh_id_rsa asks the model for a secret file
// through the argument's name alone, with an honest description beside
// it. A name is read as the words its underscores, hyphens and inner
// capitals divide.

// minNameWords is the number of words from which an identifier is read
// as a phrase: "ssh_key_path" names a parameter, a sentence of five words
// or more spelt with underscores asks for something.
const minNameWords = 5

// nameSecrets are the words and word pairs of an identifier that name a
// secret file or store.
var nameSecrets = words("ssh rsa ed25519 ecdsa passwd credentials secrets passwords keychain netrc pgpass")

var nameSecretPairs = [][2]string{{"dot", "env"}, {"env", "file"}, {"private", "key"}, {"private", "keys"}, {"api", "keys"}, {"aws", "credentials"}}

// nameVerbs are the words of an identifier that ask for the secret to be
// read or moved.
var nameVerbs = words("read reading reads steal stealing dump dumping leak leaking exfil exfiltrate exfiltrating send sending upload uploading harvest harvesting grab cat")

// spelledSecrets reports each identifier of minNameWords words or more
// that names a secret file and a verb of reading or moving it, unless
// the tool's subject names that secret too: an SSH tool may have a
// read_the_ssh_key_from_agent parameter.
func spelledSecrets(s string, subject set, add func(Rule, int, int)) {
	ident := func(c byte) bool { return isWord(c) || c == '-' }
	byteRuns(s, ident, func(i, j int) {
		if j-i >= 3*minNameWords && distinctive(s[i:j]) && spelledSecret(identWords(s[i:j]), subject) {
			add(RuleSensitiveData, i, j)
		}
	})
}

// spelledSecret reports whether the words of an identifier ask for a
// secret.
func spelledSecret(ws []string, subject set) bool {
	if len(ws) < minNameWords {
		return false
	}
	secret, verb := false, false
	for k, w := range ws {
		if nameSecrets[w] && subject[w] {
			return false // the tool is about this secret
		}
		secret = secret || nameSecrets[w]
		verb = verb || nameVerbs[w]
		if k > 0 {
			for _, p := range nameSecretPairs {
				secret = secret || ws[k-1] == p[0] && w == p[1]
			}
		}
	}
	return secret && verb
}

// identWords splits an identifier at underscores, hyphens and inner
// capitals, lower-cased: "readDot_ssh-ID" is read, dot, ssh, id.
func identWords(id string) []string {
	var out []string
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			out = append(out, b.String())
			b.Reset()
		}
	}
	prev := rune(0)
	for i := 0; i < len(id); {
		r, w := utf8.DecodeRuneInString(id[i:])
		i += w
		switch {
		case r == '_' || r == '-':
			flush()
		case unicode.IsUpper(r) && unicode.IsLower(prev):
			flush()
			b.WriteRune(unicode.ToLower(r))
		default:
			b.WriteRune(unicode.ToLower(r))
		}
		prev = r
	}
	flush()
	return out
}
