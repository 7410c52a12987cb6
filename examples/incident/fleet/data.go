package fleet

import (
	"fmt"
	"strconv"
)

// This file holds the incident every simulated server tells, as Go data.
// Every kind answers from these facts so that an investigation that crosses
// servers finds one consistent story. The names below are shared with the
// kinds written in other files: keep them stable.
//
// The story, in short: merge request !482 in gitlab-a lowers the payments-api
// DB pool from 50 to 10; pipeline #9911 deploys it to k8s-3 at 02:14Z; from
// 02:15Z the pods exhaust their pool, 5xx rises to 38% and p99 to 4.2s, pods
// crash-loop, alerts fire, people open a ticket, a page and a status page.

// Times of the incident, all on 2026-11-30 UTC.
const (
	incidentDay      = "2026-11-30"
	tMRCreated       = "2026-11-29T16:42:00Z"
	tMerge           = "2026-11-30T02:10:00Z" // !482 merged
	tPipelineStart   = "2026-11-30T02:10:30Z"
	tDeploy          = "2026-11-30T02:14:00Z" // pipeline #9911 deploys to k8s-3
	tOnset           = "2026-11-30T02:15:00Z" // 5xx and latency jump
	tAlert5xx        = "2026-11-30T02:17:00Z" // PaymentsAPIHigh5xxRate fires; page
	tAlertCrash      = "2026-11-30T02:19:00Z" // PaymentsAPIPodCrashLooping fires
	tTicket          = "2026-11-30T02:21:00Z" // INC-2041 created
	tStatus          = "2026-11-30T02:25:00Z" // status page incident
	tNow             = "2026-11-30T03:05:00Z" // "now" for the simulation
	tPrevDeploy      = "2026-11-27T11:32:00Z" // revision 36 rolled out everywhere
	tWindowStart     = "2026-11-30T01:30:00Z" // a sensible default query window
	onsetUnix        = 1796004900             // tOnset as Unix seconds
	deployUnix       = 1796004840             // tDeploy as Unix seconds
	nowUnix          = 1796007900             // tNow as Unix seconds
	windowStartUnix  = 1796002200             // tWindowStart as Unix seconds
	incidentTimeZone = "UTC"
)

// Identifiers of the incident.
const (
	badCluster   = "k8s-3" // the only cluster running the bad revision
	payNamespace = "payments"
	payApp       = "payments-api"
	payService   = "payments-api" // service label in metrics, logs and traces
	payProject   = "platform/payments-api"
	payProjectID = 1207

	badMR          = 482
	badMRTitle     = "Lower DB connection pool size to 10"
	badMRAuthor    = "j.doe"
	badMRBranch    = "jd/lower-db-pool"
	badCommit      = "9f3c2e1" // merge commit of !482, image tag of revision 37
	badCommitLong  = "9f3c2e1b7a4d60c58e21f9a03d7c4b1e6a8f0d52"
	goodCommit     = "4b1d7a0" // revision 36, still running on the healthy clusters
	goodCommitLong = "4b1d7a0e93c25f8d14a67b0c2e9f3d5a8b1c7e60"
	badRevision    = 37
	goodRevision   = 36
	badImage       = "registry.example/payments-api:" + badCommit
	goodImage      = "registry.example/payments-api:" + goodCommit
	configFile     = "config/db.yaml"
	oldPoolSize    = 50
	newPoolSize    = 10
	pipelineID     = 9911
	reviewer       = "m.lee"

	onCall         = "a.smith"
	ticketKey      = "INC-2041"
	ticketTitle    = "Payments API 5xx spike in prod (k8s-3)"
	pdIncident     = "P7Q2R1X"
	pdService      = "Payments API"
	statusTitle    = "Degraded card payments"
	slackChan      = "#inc-payments"
	dashUID        = "payments-overview"
	dashTitle      = "Payments API overview"
	argoApp        = "payments-api-k8s-3"
	alert5xx       = "PaymentsAPIHigh5xxRate"
	alertCrash     = "PaymentsAPIPodCrashLooping"
	runbookTitle   = "payments-api runbook"
	runbookMinPool = 40

	metricsServer        = "prometheus-b" // scrapes k8s-3
	logsServer           = "opensearch-a" // holds logs-payments-*
	logsIndexPattern     = "logs-payments-*"
	logsIndex            = "logs-payments-2026.11.30"
	errorCountSinceOnset = 1843

	slowOperation = "POST /v1/charges"
	slowSpan      = "db.acquire_connection"
	slowSpanSecs  = 29.8
)

// Error texts that appear in pod logs, log search hits and traces.
const (
	hikariTimeout = "HikariPool-1 - Connection is not available, request timed out after 30000ms"
	poolExhausted = "PoolExhaustedException: pool exhausted (maxPoolSize=10, active=10, waiting=187)"
	hikariInitEx  = "com.zaxxer.hikari.pool.HikariPool$PoolInitializationException"
	rollbackCmd   = "kubectl rollout undo deployment/payments-api -n payments"
)

// Rates before and after the onset, as prometheus-b reports them.
const (
	errRateBefore = 0.002 // 0.2% of requests are 5xx
	errRateAfter  = 0.38
	p99Before     = 0.18 // seconds
	p99After      = 4.2
)

// clusters are the simulated Kubernetes clusters, in order.
func clusters() []string { return []string{"k8s-1", "k8s-2", "k8s-3", "k8s-4", "k8s-5"} }

// pod is one pod as the kubernetes kind reports it.
type pod struct {
	Name      string
	Namespace string
	App       string // app label
	Image     string
	Phase     string // Running, Pending, ...
	Reason    string // container state reason, e.g. CrashLoopBackOff
	Ready     string // "1/1"
	Restarts  int
	Node      string
	IP        string
	Age       string
	Revision  int // deployment revision that owns it, 0 if none
}

// deployment is one deployment on a cluster.
type deployment struct {
	Name      string
	Namespace string
	Image     string
	Revision  int
	Replicas  int
	Ready     int
	Updated   string // last rollout time
	Available bool
}

// clusterPods returns the pods of one cluster, or nil for an unknown cluster.
// Pod names differ per cluster so that identity is visible.
func clusterPods(cluster string) []pod {
	idx := clusterIndex(cluster)
	if idx < 0 {
		return nil
	}
	n := strconv.Itoa(idx + 1)
	node := func(i int) string { return fmt.Sprintf("%s-node-%d", cluster, i) }
	ip := func(i int) string { return fmt.Sprintf("10.%d.%d.%d", 40+idx, 3+i, 17+i*9) }
	var ps []pod
	if cluster == badCluster {
		for i, p := range []struct {
			name     string
			restarts int
		}{{"payments-api-7f9c6d-xk2lp", 14}, {"payments-api-7f9c6d-q8r4t", 12}, {"payments-api-7f9c6d-m2v9n", 15}} {
			ps = append(ps, pod{Name: p.name, Namespace: payNamespace, App: payApp, Image: badImage,
				Phase: "Running", Reason: "CrashLoopBackOff", Ready: "0/1", Restarts: p.restarts,
				Node: node(i + 1), IP: ip(i), Age: "51m", Revision: badRevision})
		}
	} else {
		hash := []string{"5d8b4c", "6a2e91", "", "58c7f2", "7b03d4"}[idx]
		sfx := [][]string{{"hq7vz", "t4kmw", "zp2rx"}, {"c9dnl", "w6rbt", "k2fqs"}, nil, {"b8xlm", "r5vjd", "n3gtw"}, {"f2qpc", "j7mzh", "s9wkd"}}[idx]
		for i, s := range sfx {
			ps = append(ps, pod{Name: "payments-api-" + hash + "-" + s, Namespace: payNamespace, App: payApp,
				Image: goodImage, Phase: "Running", Ready: "1/1", Node: node(i + 1), IP: ip(i), Age: "3d15h",
				Revision: goodRevision})
		}
	}
	// Noise shared by every cluster, with per-cluster names.
	ps = append(ps,
		pod{Name: "payments-worker-6c4f8" + n + "-d7k2p", Namespace: payNamespace, App: "payments-worker",
			Image: "registry.example/payments-worker:1.19.4", Phase: "Running", Ready: "1/1", Node: node(2), IP: ip(5), Age: "6d", Revision: 12},
		pod{Name: "checkout-web-84b9" + n + "c-4xq7m", Namespace: "checkout", App: "checkout-web",
			Image: "registry.example/checkout-web:2.41.0", Phase: "Running", Ready: "1/1", Node: node(1), IP: ip(6), Age: "2d4h", Revision: 88},
		pod{Name: "checkout-web-84b9" + n + "c-9plz2", Namespace: "checkout", App: "checkout-web",
			Image: "registry.example/checkout-web:2.41.0", Phase: "Running", Ready: "1/1", Node: node(3), IP: ip(7), Age: "2d4h", Revision: 88},
		pod{Name: "ledger-" + n + "f6d9b-2hm8s", Namespace: "ledger", App: "ledger",
			Image: "registry.example/ledger:0.33.2", Phase: "Running", Ready: "1/1", Node: node(2), IP: ip(8), Age: "9d", Revision: 21},
		pod{Name: "coredns-7db6d8ff4d-" + []string{"a1", "b2", "c3", "d4", "e5"}[idx] + "x9q", Namespace: "kube-system", App: "kube-dns",
			Image: "registry.k8s.io/coredns/coredns:v1.11.3", Phase: "Running", Ready: "1/1", Node: node(1), IP: ip(9), Age: "41d"},
		pod{Name: "node-exporter-" + []string{"kq2z8", "m4r7p", "v8n2c", "h6t1w", "p3y9s"}[idx], Namespace: "monitoring", App: "node-exporter",
			Image: "quay.io/prometheus/node-exporter:v1.8.2", Phase: "Running", Ready: "1/1", Node: node(1), IP: ip(10), Age: "41d"},
	)
	return ps
}

// clusterDeployments returns the deployments of one cluster.
func clusterDeployments(cluster string) []deployment {
	if clusterIndex(cluster) < 0 {
		return nil
	}
	pay := deployment{Name: payApp, Namespace: payNamespace, Image: goodImage, Revision: goodRevision,
		Replicas: 3, Ready: 3, Updated: tPrevDeploy, Available: true}
	if cluster == badCluster {
		pay = deployment{Name: payApp, Namespace: payNamespace, Image: badImage, Revision: badRevision,
			Replicas: 3, Ready: 0, Updated: tDeploy, Available: false}
	}
	return []deployment{
		pay,
		{Name: "payments-worker", Namespace: payNamespace, Image: "registry.example/payments-worker:1.19.4", Revision: 12, Replicas: 1, Ready: 1, Updated: "2026-11-24T09:03:00Z", Available: true},
		{Name: "checkout-web", Namespace: "checkout", Image: "registry.example/checkout-web:2.41.0", Revision: 88, Replicas: 2, Ready: 2, Updated: "2026-11-28T14:20:00Z", Available: true},
		{Name: "ledger", Namespace: "ledger", Image: "registry.example/ledger:0.33.2", Revision: 21, Replicas: 1, Ready: 1, Updated: "2026-11-21T10:11:00Z", Available: true},
		{Name: "coredns", Namespace: "kube-system", Image: "registry.k8s.io/coredns/coredns:v1.11.3", Revision: 2, Replicas: 1, Ready: 1, Updated: "2026-10-20T08:00:00Z", Available: true},
	}
}

// namespaces lists the namespaces every cluster has.
func namespaces() []string {
	return []string{"default", "kube-system", "monitoring", "payments", "checkout", "ledger"}
}

func clusterIndex(cluster string) int {
	for i, c := range clusters() {
		if c == cluster {
			return i
		}
	}
	return -1
}

// alert is one Prometheus alert as alertmanager and grafana show it.
type alert struct {
	Name      string
	Severity  string
	State     string // firing | resolved
	StartsAt  string
	Labels    map[string]string
	Summary   string
	Generator string // URL-ish source
}

// incidentAlerts returns the alerts that fire during the incident.
func incidentAlerts() []alert {
	return []alert{
		{Name: alert5xx, Severity: "critical", State: "firing", StartsAt: tAlert5xx,
			Labels:  map[string]string{"alertname": alert5xx, "severity": "critical", "cluster": badCluster, "namespace": payNamespace, "service": payService},
			Summary: "payments-api 5xx ratio above 5% for 2m on k8s-3 (currently 38%)", Generator: "http://prometheus-b:9090/graph?g0.expr=payments_api_5xx_ratio"},
		{Name: alertCrash, Severity: "warning", State: "firing", StartsAt: tAlertCrash,
			Labels:  map[string]string{"alertname": alertCrash, "severity": "warning", "cluster": badCluster, "namespace": payNamespace, "deployment": payApp},
			Summary: "payments-api pods in payments are restarting repeatedly (CrashLoopBackOff)", Generator: "http://prometheus-b:9090/graph?g0.expr=kube_pod_container_status_restarts_total"},
	}
}

// chatMessage is one message in the incident channel.
type chatMessage struct {
	TS   string // Slack-style timestamp
	Time string
	User string
	Text string
}

// incidentChat returns the messages posted to #inc-payments, oldest first.
func incidentChat() []chatMessage {
	return []chatMessage{
		{TS: "1796005080.001200", Time: "2026-11-30T02:18:00Z", User: "pagerduty", Text: "Incident " + pdIncident + " triggered for " + pdService + ": " + alert5xx + " (k8s-3). Assigned to " + onCall + "."},
		{TS: "1796005200.002300", Time: "2026-11-30T02:20:00Z", User: onCall, Text: "seeing 5xx on payments since ~02:15, only k8s-3 so far. looking"},
		{TS: "1796005290.003100", Time: "2026-11-30T02:21:30Z", User: onCall, Text: "opened " + ticketKey + ". pods in payments on k8s-3 are crash looping"},
		{TS: "1796005440.004400", Time: "2026-11-30T02:24:00Z", User: badMRAuthor, Text: "I merged !482 around 02:10, could be related? it lowered the db pool to 10"},
		{TS: "1796005500.005000", Time: "2026-11-30T02:25:00Z", User: "statusbot", Text: "Status page incident opened: " + statusTitle + " (investigating)"},
	}
}

// timelineEvent is one entry of the incident timeline, for kinds that show
// history (pagerduty log entries, jira comments, statuspage updates).
type timelineEvent struct {
	Time   string
	Source string
	Text   string
}

// incidentTimeline returns the whole story in time order.
func incidentTimeline() []timelineEvent {
	return []timelineEvent{
		{tMerge, "gitlab-a", fmt.Sprintf("!%d %q by %s merged into main of %s (merge commit %s)", badMR, badMRTitle, badMRAuthor, payProject, badCommit)},
		{tDeploy, "gitlab-a", fmt.Sprintf("pipeline #%d deployed %s to %s (deployment %s revision %d)", pipelineID, badImage, badCluster, payApp, badRevision)},
		{tDeploy, "argocd", fmt.Sprintf("application %s synced to %s; health Degraded", argoApp, badCommit)},
		{tOnset, "prometheus-b", "payments-api 5xx ratio rises from 0.2% to 38%; p99 latency from 0.18s to 4.2s"},
		{tAlert5xx, "alertmanager", alert5xx + " firing (critical, k8s-3, payments)"},
		{tAlert5xx, "pagerduty", "incident " + pdIncident + " triggered for " + pdService + ", on-call " + onCall},
		{tAlertCrash, "alertmanager", alertCrash + " firing (k8s-3, payments)"},
		{tTicket, "jira", ticketKey + " created: " + ticketTitle + " (assignee " + onCall + ")"},
		{"2026-11-30T02:24:00Z", "slack", badMRAuthor + " in " + slackChan + ": I merged !482 around 02:10, could be related?"},
		{tStatus, "statuspage", "incident \"" + statusTitle + "\" opened, status investigating"},
	}
}
