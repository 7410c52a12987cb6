package config

import (
	"path/filepath"
	"strings"
)

// expand replaces ${VAR} and ${VAR:-default} with values from lookup.
// Only the braced form is recognised, so "$1" or "$HOME" in an argument for
// a shell stays as written; "$${" is a literal "${". An unset variable
// without a default becomes "", as in a shell: a missing token then shows up
// as a failed request, never as an error message quoting the environment.
func expand(s string, lookup func(string) (string, bool)) string {
	if !strings.Contains(s, "${") {
		return s
	}
	var b strings.Builder
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		if i > 0 && s[i-1] == '$' {
			b.WriteString(s[:i-1])
			b.WriteString("${")
			s = s[i+2:]
			continue
		}
		end := strings.IndexByte(s[i:], '}')
		if end < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		body := s[i+2 : i+end]
		name, def, hasDef := strings.Cut(body, ":-")
		if !validVarName(name) {
			b.WriteString(s[i : i+end+1]) // not a reference: keep it verbatim
		} else if v, ok := lookup(name); ok && (v != "" || !hasDef) {
			b.WriteString(v)
		} else if hasDef {
			b.WriteString(def)
		}
		s = s[i+end+1:]
	}
}

func validVarName(name string) bool {
	if name == "" {
		return false
	}
	for i, r := range name {
		switch {
		case r == '_', r >= 'A' && r <= 'Z', r >= 'a' && r <= 'z':
		case r >= '0' && r <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}

// expandServer expands the fields that may carry ${VAR}.
func expandServer(s *Server, lookup func(string) (string, bool)) {
	s.Command = expand(s.Command, lookup)
	s.URL = expand(s.URL, lookup)
	for i, a := range s.Args {
		s.Args[i] = expand(a, lookup)
	}
	for k, v := range s.Env {
		s.Env[k] = expand(v, lookup)
	}
	for k, v := range s.Headers {
		s.Headers[k] = expand(v, lookup)
	}
}

// resolvePaths makes relative paths absolute against dir, the config file's
// folder, so a fleet file works from any working directory. A bare command
// ("npx") has no slash and stays for PATH lookup; args and env values are
// treated as paths only when they start with ./ or ../, since anything else
// could be an ordinary word.
func resolvePaths(s *Server, dir string) {
	if dir == "" {
		return
	}
	if strings.Contains(s.Command, "/") && !filepath.IsAbs(s.Command) {
		s.Command = filepath.Join(dir, s.Command)
	}
	for i, a := range s.Args {
		if isRelPath(a) {
			s.Args[i] = filepath.Join(dir, a)
		}
	}
	for k, v := range s.Env {
		if isRelPath(v) {
			s.Env[k] = filepath.Join(dir, v)
		}
	}
}

func isRelPath(s string) bool {
	return strings.HasPrefix(s, "./") || strings.HasPrefix(s, "../")
}

// resolve expands ${VAR} in the spill folder and makes it absolute
// against dir, the config file's folder. Whether files can be made there
// is the store's to find out: a folder it cannot use keeps results in
// memory, with a warning, rather than failing the load.
func (s *Spill) resolve(dir string, lookup func(string) (string, bool)) {
	if s.Dir == "" {
		return
	}
	s.Dir = expand(s.Dir, lookup)
	if dir != "" && !filepath.IsAbs(s.Dir) {
		s.Dir = filepath.Join(dir, s.Dir)
	}
}
