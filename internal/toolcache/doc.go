// Package toolcache reads and writes the tool cache: each server's last
// tools/list, serverInfo and instructions, kept in one JSON file beside the
// fleet file so that a lazily started fleet can show its tools before any
// server is up.
//
// # Keys
//
// A cache belongs to one fleet file (File.Fleet holds its absolute path)
// and each entry to one launch config ([Key]: a hash of the transport,
// command, args, env and header names and URL). A cache written for
// another fleet file, or an entry whose launch config changed, is not
// used: the caller starts that server eagerly instead.
//
// # Format
//
//	{"version": 1, "fleet": "/srv/fleet.yaml", "servers": {
//	  "k8s-1": {"key": "<sha256>", "server_info": {"name": "k", "version": "1"},
//	            "instructions": "", "tools": [{"name": "pods_list", ...}]}}}
//
// [Parse] never panics on bad input (FuzzParse); its errors are
// *[FieldError]s that name the field at fault. A bad entry costs only
// that server its entry.
//
// # Placement
//
// [Path] puts the cache beside the fleet file; [FallbackPath] under the
// user cache folder ($XDG_CACHE_HOME/mcpfleet) for a fleet whose folder is
// not writable. [Write] replaces the file atomically (temporary file and
// rename), so a reader never sees half a cache.
package toolcache
