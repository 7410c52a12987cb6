// Package testservice starts real system services for tests: a Redis
// server on a free loopback port, and lookups of system binaries such as
// nginx and promtool. Only test code imports it.
//
// A service that is not installed skips the test outside CI, naming the
// command that installs it (scripts/install-test-deps.sh, which make test
// runs); under CI (CI=true) it fails the test instead, so that a missing
// install step can never pass as a green run.
//
//	addr := testservice.Redis(t) // "127.0.0.1:PORT"; stopped by t.Cleanup
package testservice
