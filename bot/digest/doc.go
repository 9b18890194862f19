// Package digest decides when a digest (the visitors' and the docs
// health's) is due. It is pure: the schedule comes from the text of
// DOCSBOT_DIGEST_TIME, or of the digest time a workspace set in Slack
// (bot/settings, the same text), and the time from the caller, so that
// tests (and the sandbox) drive it with a clock of their own.
//
// The text is "[weekday] HH:MM [zone]": "Mon 09:00 UTC" (the default),
// "Mon 09:00 Europe/Paris", "09:00 UTC". The weekday is the day of weekly
// digests (Monday when left out); daily digests go out every day at the
// time. The zone is an IANA name (UTC when left out); the zone database is
// built into the binary (time/tzdata), so the static image needs none.
//
// Each posting has a due time and a period key: the ISO week of the due
// day for a weekly digest ("2026-W48"), the due day for a daily one
// ("2026-11-23"). The key names the posting in the store's exactly-once
// claim (store.DigestRun), so every replica computes the same one. Across
// a change of daylight saving time the wall clock rules: 09:00 stays 09:00.
// A time the clock skips (02:30 on the night clocks go forward) is due when
// the clock jumps; a time it shows twice is due the first time.
//
// A replica asks Owed on each tick: the latest posting, if it came due
// less than the frequency's Window ago (a day for weekly digests, six hours
// for daily ones), so that a replica starting after the due time still
// posts; store.Digests.ClaimDigest, with the frequency's Keep as the record's life,
// makes sure only one replica does, once. Next says when to look again.
//
// A posting reports the whole UTC days that ended before it was due: the
// seven days before for a weekly digest, the day before for a daily one
// (the analytics count in UTC days).
package digest
