// Package docsapitest runs an in-process fake of the Documentation Service API
// for tests and for local sandboxes, in the spirit of net/http/httptest.
//
// A [Server] speaks real HTTP on a local address and behaves like the service:
// it checks the Bearer key and the project, validates input, keeps agent jobs
// that move through a lifecycle as they are polled, counts requests against
// hourly rate limits and serves visitor analytics from a deterministic
// [Dataset]. Tests can inspect what was asked ([Server.Requests]), look at or
// force job states ([Server.Job], [Server.SetJobStatus]) and inject faults
// such as 5xx answers, proxy pages, broken JSON, dropped connections and
// latency ([Server.AddFault]).
//
//	srv := docsapitest.NewServer()
//	defer srv.Close()
//	// point a client at srv.URL with key srv.Key and project srv.ProjectID
//
// # Endpoints
//
//	POST /v2/agent/{projectId}/job               create a job        201 job
//	POST /v2/agent/{projectId}/job/{id}/message  follow-up message   200 job
//	GET  /v2/agent/{projectId}/job/{id}          get a job (a poll)  200 job
//	GET  /v1/analytics/{projectId}/visitors      unique visitors     200 {totals, visitors, hasMore}
//	POST /v1/project/update/{projectId}          deploy              202 {statusId}
//	POST /v1/project/preview/{projectId}         preview a branch    202 {statusId, previewUrl}
//	GET  /v1/project/update-status/{statusId}    a deployment (poll) 200 {_id, status, commit, logs, ...}
//	GET  /v1/analytics/{projectId}/views          page views          200 {totals, views, hasMore}
//	GET  /v1/analytics/{projectId}/searches       search terms        200 {searches, totalSearches, nextCursor}
//	GET  /v1/analytics/{projectId}/feedback       feedback            200 {feedback, nextCursor, hasMore}
//	GET  /v1/analytics/{projectId}/feedback/by-page  per page         200 {feedback, hasMore}
//	GET  /v1/analytics/{projectId}/assistant      conversations       200 {conversations, nextCursor, hasMore}
//	GET  /v1/analytics/{projectId}/assistant/threads/{id}  a thread   200 {threadId, createdAt, messages}
//	GET  /v1/analytics/{projectId}/assistant/caller-stats  by caller  200 {web, api, other, total}
//
// Views come from the [Dataset]'s visitors (1 to 2.5 views a visitor, per
// page); searches, feedback and conversations from an [Analytics] story
// ([DefaultAnalytics], [WithAnalytics]) dated relative to the server clock.
// All analytics endpoints count against the one Visitors limit.
//
// Jobs have ids "job_" followed by 16 hex digits, model "claude-sonnet-4",
// createdAt in RFC 3339 (UTC, millisecond precision), source {repository,
// ref: "main"}, prLink null while active, and archivedAt only once archived.
//
// # Errors
//
// Requests are checked in this order; the first failing check answers.
//
//	unknown path                          404 {"error":"not found"}
//	known path, wrong method              405 {"error":"method not allowed"} with Allow
//	Authorization missing or not Bearer   401 {"error":"missing or invalid API key"}
//	wrong key                             401 {"error":"missing or invalid API key"}
//	projectId is not the server's         404 {"error":"project not found"} (agent and analytics alike)
//	over the hourly limit                 429 {"error":"rate limit exceeded"} with Retry-After
//	agent body larger than 1 MiB          413 {"error":"request body too large"}
//	agent body not JSON / not an object   400 {"error":"invalid JSON body"} / {"error":"request body must be a JSON object"}
//	prompt missing or null                400 {"error":"prompt is required"}
//	prompt not a string                   400 {"error":"prompt must be a string"}
//	prompt empty                          400 {"error":"prompt must not be empty"}
//	unknown job id                        404 {"error":"job not found"}
//	previews off ([WithPreviews])         403 {"error":"preview deployments are not available on your plan"}
//	preview branch missing or null        400 {"error":"branch is required"}
//	preview branch not a string           400 {"error":"branch must be a string"}
//	preview branch empty or not a git name 400 {"error":"branch is not a valid branch name"}
//	unknown status id                     404 {"error":"deployment not found"}
//	bad analytics query                   400 {"error":"Invalid query parameters","details":[{"message":"..."}, ...]}
//
// The same answer is given for a missing and a wrong key, and the key is
// checked before the project, so the server reveals nothing without a valid
// key. A wrong project is 404 on the analytics endpoint too: it is a missing
// resource, not a bad query. The Bearer scheme name is matched without regard
// to case.
//
// Analytics query rules: limit is an integer 1..250 (default 50); offset is an
// integer 0 or more (default 0); dateFrom and dateTo are YYYY-MM-DD or ISO 8601
// date-times (a date-time counts as its UTC day). An empty value is invalid.
// Every broken parameter adds one details entry.
// The other analytics endpoints check their own limits (searches and feedback
// 1..100, default 50; feedback by page 1..100, default 10; conversations
// 1..1000, default 100), source (contextual, code_snippet, agent,
// thumbs_only) and status (a comma-separated list of pending, in_progress,
// resolved, dismissed). A cursor the server did not give is 400 "cursor is
// invalid"; a thread id that is not a ULID is 400 {"error":"Invalid thread
// ID"}, an unknown one 404 {"error":"thread not found"}.
//
// # Job lifecycle
//
// Each create and each follow-up message asks the lifecycle function
// ([WithLifecycle], [Server.SetLifecycle]) for a [Lifecycle]. The job stays
// active until it has been fetched with GET Lifecycle.ActivePolls times and
// Lifecycle.ActiveFor has passed on the server clock since it was started or
// restarted; the next GET finds it finished with the [Outcome]. Only GETs move
// a job on: [Server.Job] and [Server.Jobs] do not.
//
// [DefaultLifecycle] answers active for two GETs and then, by keywords in the
// prompt (case-insensitive, checked in this order):
//
//	"[fail]"       the job fails
//	"[no-change]"  the job completes with prLink null
//	"[archive]"    the job is archived
//	otherwise      the job completes with a new pull request link
//
// A follow-up message to any job, finished or not, makes it active again with
// prLink null and no archivedAt, with a fresh lifecycle decided from the
// follow-up prompt and its poll count and timer restarted.
//
// # Deployments
//
// A deployment (M1) or a preview (M3) starts queued; its status (M2) moves
// on as it is polled, like a job: [DefaultDeployLifecycle] answers queued to
// the first GET, in_progress to the second, and success to the third, or
// failure for a preview whose branch has the word "fail". The lifecycle
// function ([WithDeployLifecycle], [Server.SetDeployLifecycle],
// [TimedDeployLifecycle] for sandboxes) decides per deployment;
// [Server.FailNextDeploy] fails the next one whatever it says, and
// [Server.SetDeployStatus] forces a state. A status has "_id" (24 hex
// digits), projectId, createdAt, endedAt once ended, a summary, logs that
// grow as it runs (a failure's end with a line "Error: ..."), the subdomain
// (the domain, or domain-branch for a preview, whose previewUrl is
// https://{subdomain}.mintlify.app), an author, a commit {sha, ref ("main"
// or the preview's branch), message, filesChanged} and source "api".
// [Server.Deployment] and [Server.Deployments] look without polling.
//
// # Rate limits
//
// [Limits] holds requests per sliding hour for create, message, get and the
// analytics endpoint (0 = unlimited); agent limits are per project and the
// analytics limit per organization, which on this single-project server means
// one counter each. A request counts once it has passed the key and project
// checks, even if it then fails validation; requests rejected with 401, 404
// project, 429 or by a fault that answers before acting do not count. An
// endpoint without a limit keeps no count, so a limit set later counts from then
// on. Deploy and Preview count in windows of 10 seconds and a minute
// instead of an hour (10 deployments and 5 previews by default).
//
// # Faults
//
// Faults stand in front of everything else, like a proxy or a flaky network:
// a fault that answers before acting does so before routing and the key
// check, and the request does no work. [Fault] values are matched in the
// order added; the first one whose Endpoint
// matches (empty matches all) is used for a request and its Times is consumed.
// A fault with only Latency (or Hold, a channel that holds the request
// until it is closed) delays the request and then lets it through. A
// fault that answers does so, in order of precedence, by closing the connection
// (CloseConn), by a 2xx with truncated JSON (Malformed), or with Status and
// Body. Status 0 with a Body answers the endpoint's success status, so a test
// can serve any raw body. With AfterAct the real work is done first (the job
// is created, the limit counted), then Latency passes and the fault answers.
//
// # Requests
//
// Every request that reaches a handler is recorded on arrival, including those
// rejected by the key check, limits or faults, and its Status is filled in when
// answered. Status 0 means no answer was sent: the connection was closed by a
// fault, or the client gave up during a delay, or the server was closed. The
// Authorization header is never recorded or logged.
//
// # Visitor data
//
// Analytics come from a [Dataset]: deterministic per-path, per-UTC-day human
// and AI counts for the 400 days before the server clock's today, plus today
// with the part of the day that has passed. A range sums daily counts per page;
// a page's total removes a small deterministic overlap, and site totals are
// deduplicated further, so neither equals the sum of its parts.
//
// # Discovery API: the assistant, search and page
//
// Under [Server.DiscoveryURL] (URL plus "/discovery", see
// [WithDiscoveryPrefix]) the server answers for one docs domain
// ([WithDomain]) with the assistant key ([WithAssistantKey]); the admin key
// is refused there and the assistant key elsewhere:
//
//	POST {prefix}/v2/assistant/{domain}/message  a question        200 text/event-stream
//	POST {prefix}/v1/search/{domain}             search            200 [{content, path, metadata}]
//	POST {prefix}/v1/page/{domain}               a page            200 {path, content}
//
// A bad key is 401 with a plain-text body, another domain 404
// {"message":"domain not found"}, an unknown page 404
// {"message":"page not found"}, a threadId unknown or without its matching
// threadKey 404 {"error":"thread not found"}. Unknown fields and part types
// are ignored.
//
// Answers come from a small, deterministic docs index ([DefaultDocs],
// [WithDocs]): the question (the text of the last message, a user's) is
// searched, and the answer is an AI SDK 5 UI message stream: start, a search
// tool call (tool-input-available with input.query, tool-output-available
// with output.results[] of {path, content, metadata.title}), source-url
// chunks with [WithSourceURLs], text-start, text deltas of four words,
// text-end, finish with threadId (top level and messageMetadata), then
// [DONE]. The text quotes the best page, links it, names the thread's
// earlier question and lists the other pages in a suggestions block. A new
// thread's answer carries X-Thread-Id and X-Thread-Key. [Server.Questions]
// and [Server.Thread] tell how often the assistant was asked, in all and per
// thread.
//
// [Fault] shapes a stream too: Pace holds each text delta after the first
// until the test lets it go, DeltaDelay slows it, StreamError sends an error
// chunk and CutStream closes the connection after AfterDeltas deltas, and
// NoThreadHeaders leaves the thread to the finish chunk. The other faults
// (429 with RetryAfter, CloseConn, Status...) work as for every endpoint.
// [Limits] has Assistant and Discovery (search and page together).
//
// # Sandboxes
//
// For a long-running local server use [Start] (which returns an error instead
// of panicking), [WithAddr], [WithLogger], [WithMaxRequests] to bound the
// request log, and a lifecycle with real time in it such as
// TimedLifecycle(20*time.Second).
package docsapitest
