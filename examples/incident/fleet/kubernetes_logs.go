package fleet

import (
	"fmt"
	"hash/fnv"
	"time"
)

// rng is a tiny deterministic generator so that logs are identical on every
// run and every instance without package-level state.
type rng struct{ s uint64 }

func newRNG(seed string) *rng {
	h := fnv.New64a()
	h.Write([]byte(seed))
	return &rng{s: h.Sum64() | 1}
}

func (r *rng) intn(n int) int {
	r.s ^= r.s << 13
	r.s ^= r.s >> 7
	r.s ^= r.s << 17
	return int(r.s % uint64(n))
}

func (r *rng) hex(n int) string {
	const digits = "0123456789abcdef"
	b := make([]byte, n)
	for i := range b {
		b[i] = digits[r.intn(16)]
	}
	return string(b)
}

// crashLogLines is how many request lines one run of a crashing pod logs:
// the incident needs the log to be long (≥ 2,500 lines, > 10k tokens) so
// that agents must offload or tail it.
const crashLogLines = 2200

type route struct{ method, path string }

// requestPaths is the traffic mix of payments-api; charges dominate.
func requestPaths() []route {
	return []route{
		{"POST", "/v1/charges"}, {"POST", "/v1/charges"}, {"POST", "/v1/charges"}, {"GET", "/v1/charges/{id}"},
		{"POST", "/v1/refunds"}, {"GET", "/v1/customers/{id}/methods"}, {"POST", "/v1/charges/{id}/capture"},
	}
}

// logTime uses the compact logback pattern HH:mm:ss.SSS (UTC): the day is
// 2026-11-30 throughout.
func logTime(t time.Time) string { return t.UTC().Format("15:04:05.000") }

// podLog returns the log lines of a pod. For the crashing pods it is the
// last terminated run (previous selects the run before), as kubectl shows
// for a container in CrashLoopBackOff.
func podLog(p pod, previous bool) []string {
	r := newRNG(fmt.Sprint(p.Name, previous))
	if p.App != payApp {
		return noiseLog(p, r)
	}
	start, _ := time.Parse(time.RFC3339, "2026-11-30T02:58:41Z")
	if previous {
		start = start.Add(-5*time.Minute - 31*time.Second)
	}
	if p.Reason != "CrashLoopBackOff" {
		start, _ = time.Parse(time.RFC3339, "2026-11-30T02:55:00Z")
	}
	pool := oldPoolSize
	commit := goodCommit
	if p.Revision == badRevision {
		pool, commit = newPoolSize, badCommit
	}
	routes := requestPaths()
	thread := func() string { return fmt.Sprintf("[exec-%d]", 1+r.intn(200)) }
	out := []string{
		fmt.Sprintf("%s  INFO [           main] c.e.payments.PaymentsApiApplication      : Starting PaymentsApiApplication v1.%d.0 (commit %s) using Java 21.0.5 with PID 1", logTime(start), p.Revision, commit),
		fmt.Sprintf("%s  INFO [           main] c.e.payments.PaymentsApiApplication      : The following 1 profile is active: \"prod\"", logTime(start.Add(400*time.Millisecond))),
		fmt.Sprintf("%s  INFO [           main] c.e.payments.config.DbConfig             : Loaded %s: url=jdbc:postgresql://payments-db.payments:5432/payments maxPoolSize=%d minIdle=2 connectionTimeout=30000ms", logTime(start.Add(2100*time.Millisecond)), configFile, pool),
		fmt.Sprintf("%s  INFO [           main] com.zaxxer.hikari.HikariDataSource       : HikariPool-1 - Starting...", logTime(start.Add(2300*time.Millisecond))),
		fmt.Sprintf("%s  INFO [           main] com.zaxxer.hikari.pool.HikariPool        : HikariPool-1 - Added connection org.postgresql.jdbc.PgConnection@%s", logTime(start.Add(2500*time.Millisecond)), r.hex(8)),
		fmt.Sprintf("%s  INFO [           main] com.zaxxer.hikari.HikariDataSource       : HikariPool-1 - Start completed.", logTime(start.Add(2600*time.Millisecond))),
		fmt.Sprintf("%s  INFO [           main] o.s.b.w.embedded.tomcat.TomcatWebServer  : Tomcat started on port 8080 (http) with context path '/'", logTime(start.Add(4800*time.Millisecond))),
		fmt.Sprintf("%s  INFO [           main] c.e.payments.PaymentsApiApplication      : Started PaymentsApiApplication in 5.1 seconds", logTime(start.Add(5100*time.Millisecond))),
	}
	if p.Reason != "CrashLoopBackOff" {
		// A healthy pod: a few minutes of ordinary traffic.
		for i := 0; i < 150; i++ {
			t := start.Add(6*time.Second + time.Duration(i)*1200*time.Millisecond)
			rp := routes[r.intn(len(routes))]
			out = append(out, fmt.Sprintf("%s  INFO %s c.e.payments.http.AccessLog : %s %s 200 %dms trace=%s", logTime(t), thread(), rp.method, rp.path, 20+r.intn(90), r.hex(16)))
			if i%50 == 49 {
				out = append(out, fmt.Sprintf("%s DEBUG [ool-1 housekeeper] com.zaxxer.hikari.pool.HikariPool : HikariPool-1 - Pool stats (total=%d, active=%d, idle=%d, waiting=0)", logTime(t), pool, 6+r.intn(8), pool-10))
			}
		}
		return out
	}
	// A crashing pod: traffic saturates the 10-connection pool within
	// seconds; requests wait 30s for a connection, fail, and the liveness
	// probe (which also needs a connection) fails until the kubelet kills it.
	span := 91 * time.Second
	waiting := 0
	for i := 0; i < crashLogLines; i++ {
		t := start.Add(6*time.Second + span*time.Duration(i)/crashLogLines)
		rp := routes[r.intn(len(routes))]
		switch {
		case i < 120:
			out = append(out, fmt.Sprintf("%s  INFO %s %s %s 200 %dms", logTime(t), thread(), rp.method, rp.path, 40+r.intn(400)+i*20))
		case i%97 == 0:
			waiting = min(187, waiting+40+r.intn(30))
			out = append(out, fmt.Sprintf("%s DEBUG [ool-1 housekeeper] com.zaxxer.hikari.pool.HikariPool : HikariPool-1 - Pool stats (total=10, active=10, idle=0, waiting=%d)", logTime(t), waiting))
		case i%211 == 0:
			out = append(out,
				fmt.Sprintf("%s ERROR %s o.a.c.c.C.[.[.[/].[dispatcherServlet]    : Servlet.service() for servlet [dispatcherServlet] threw exception", logTime(t), thread()),
				"com.example.payments.db."+poolExhausted,
				"\tat com.example.payments.db.GuardedDataSource.acquire(GuardedDataSource.java:88)",
				"\tat com.example.payments.charges.ChargeRepository.insert(ChargeRepository.java:142)",
				"\tat com.example.payments.charges.ChargeService.create(ChargeService.java:57)",
				"\tat com.example.payments.http.ChargeController.create(ChargeController.java:41)",
				"Caused by: java.sql.SQLTransientConnectionException: "+hikariTimeout,
				"\tat com.zaxxer.hikari.pool.HikariPool.createTimeoutException(HikariPool.java:686)",
				"\tat com.zaxxer.hikari.pool.HikariPool.getConnection(HikariPool.java:179)",
				"\t... 87 common frames omitted",
			)
		case i%61 == 0:
			out = append(out, fmt.Sprintf("%s  WARN [nio-8080-exec-1] c.e.payments.health.DbHealthIndicator : liveness check failed: %s", logTime(t), hikariTimeout),
				fmt.Sprintf("%s  INFO [nio-8080-exec-1] c.e.payments.http.AccessLog : GET /actuator/health/liveness 503 5001ms", logTime(t)))
		case i%9 == 0:
			out = append(out, fmt.Sprintf("%s ERROR %s ChargeService: charge failed: %s", logTime(t), thread(), hikariTimeout),
				fmt.Sprintf("%s  INFO %s %s %s 500 %dms", logTime(t), thread(), rp.method, rp.path, 30000+r.intn(12)))
		default:
			code, ms := 200, 2500+r.intn(27000)
			if r.intn(100) < 38 {
				code, ms = 500, 30000+r.intn(12)
			}
			out = append(out, fmt.Sprintf("%s  INFO %s %s %s %d %dms", logTime(t), thread(), rp.method, rp.path, code, ms))
		}
	}
	end := start.Add(6*time.Second + span)
	return append(out,
		fmt.Sprintf("%s  WARN [ionShutdownHook] o.s.b.w.e.tomcat.GracefulShutdown : Commencing graceful shutdown. Waiting for active requests to complete", logTime(end)),
		fmt.Sprintf("%s  INFO [ionShutdownHook] com.zaxxer.hikari.HikariDataSource : HikariPool-1 - Shutdown initiated...", logTime(end.Add(300*time.Millisecond))),
		fmt.Sprintf("%s ERROR [ionShutdownHook] c.e.payments.PaymentsApiApplication : exiting with status 1: %s", logTime(end.Add(900*time.Millisecond)), poolExhausted),
	)
}

// noiseLog is the short, healthy log of the pods nobody needs to read.
func noiseLog(p pod, r *rng) []string {
	t, _ := time.Parse(time.RFC3339, "2026-11-30T02:40:00Z")
	var out []string
	for i := 0; i < 40; i++ {
		t = t.Add(time.Duration(20+r.intn(40)) * time.Second)
		out = append(out, fmt.Sprintf("%s level=info app=%s msg=\"request served\" status=200 duration_ms=%d", logTime(t), p.App, 3+r.intn(60)))
	}
	return out
}
