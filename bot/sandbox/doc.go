// Package sandbox runs the whole product on one machine with nothing to
// configure: the real bot (package bot), in install mode, taking over HTTP
// the requests of the fake Slack of bot/slacktest (the sandbox's workspace,
// installed at start, and Other Co, which adds docsbot from the page by
// the real install flow), calling the docs API test server of
// docsapi/docsapitest, keeping its state in an embedded Redis-compatible
// store (miniredis) or, with a Redis URL, under a key prefix of its own that
// it deletes on Close, and a web page (slackweb) that shows the fake
// workspace as a Slack channel and sends what a person types.
//
// Start builds the world in that order, waits until the bot serves
// Slack's requests, then serves the page; Wait returns when ctx ends or a part
// stops; Close stops the page, then the bot, then what the bot used.
//
// The clock is the real one, with one exception to make the visitors digest
// visible: the sandbox's digests come due a couple of minutes after it starts
// (then daily or weekly at that time of day, UTC), and it looks for owed
// digests every few seconds. The channel's intro gives the time, so
// `/docs-visitors digest daily` typed right away shows a digest posted.
//
// The page acts as Alice, a member of the workspace, or, chosen under "You
// are" in its sidebar, as Gus, a guest, who is only in #help and #random,
// or Pat of Partner Co, another organisation (Slack Connect), who is only in
// #partner-shared, the channel the workspace shares with Partner Co: what docsbot shows to whom, and
// where, can be tried as each of them.
//
// `docsbot sandbox` (cmd/docsbot) is a thin command over it. The production
// image is built with the nosandbox tag, so the serve binary does not carry
// this package, the fakes or miniredis.
package sandbox
