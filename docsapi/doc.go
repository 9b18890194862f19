// Package docsapi is a typed client for the documentation platform's REST API:
// agent jobs (create, follow-up message, get), deployments (deploy, preview a
// branch, follow a deployment's status), the unique-visitors export and the
// other analytics reports (page views, searches, feedback, feedback by page,
// assistant conversations and threads, caller stats); and for its discovery
// API: the assistant, search and pages.
//
// One [Client] serves every call. Each call takes a context first, validates
// its input before sending anything, and returns typed results. A failure
// reported by the service is an [*APIError] carrying the status code and the
// server's message; it matches the sentinels [ErrNotFound], [ErrUnauthorized],
// [ErrRateLimited] and [ErrInvalidRequest] through errors.Is.
//
// Reads are retried on network errors, 408, 429 and 5xx with capped, jittered
// exponential backoff that honours Retry-After. The POST operations (create,
// message, deploy, preview) are not idempotent: they are retried only when the
// server certainly did not act on them (429, or a connection that could not be
// opened). Any other failure after the request may have reached the server
// wraps [ErrOutcomeUnknown]. A 403 to a preview also matches
// [ErrPreviewsNotAllowed].
//
// The API key is sent only in the Authorization header. It never appears in an
// error, a log line or the client's printed form.
//
// # Analytics
//
// The analytics calls share the organisation's budget of 100 requests an
// hour; [EndpointOf] names each, so that a caller can count what a report
// costs. The paged ones have a pager
// ([Client.ViewPages], [Client.SearchPages], [Client.FeedbackPages],
// [Client.ConversationPages]) that takes a bound on the pages it fetches and
// ends with a [*PageBoundError] when the bound cuts the walk short.
// [Client.FeedbackByPage] has only one page; its HasMore says it was cut.
// Where the documentation is unsure (the scale of a search's ctr, hasMore
// beside nextCursor, a conversation row's id) the code says what it assumes.
//
// # Assistant
//
// [Assistant], built by [NewAssistant] with an assistant key (mint_dsc_…) and
// the docs domain, calls the discovery API: [Assistant.Ask] puts a question
// and returns an [AnswerStream] whose Next yields typed events as the AI SDK
// 5 UI message stream delivers them (text deltas, search calls, sources,
// finish) with no goroutine of its own; [Assistant.Search] and
// [Assistant.Page] read the docs. A question costs credits and is never
// repeated once the service may have taken it. A stream that breaks off
// wraps [ErrStreamCut], an error chunk is an [*AnswerError], and a 404 in a
// thread wraps [ErrThreadNotFound]. The thread key, like the assistant key,
// never shows in an error or a log line. [ExtractSuggestions] takes the
// follow-up links out of an answer.
package docsapi
