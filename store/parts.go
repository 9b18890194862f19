package store

// The parts of a Store, one per concern: each works on the Store's
// connection and key prefix and keeps the keys store/doc.go ("Parts") lists
// for it. A feature takes the parts it uses one by one, through interfaces
// of its own that list what it calls. A part is a small value, safe for
// concurrent use, valid as long as its Store is open; the zero part has no
// Store and must not be used.

// Jobs is the agent jobs' state: each job's record and thread link, the
// poll schedule (claims, fenced by tokens; "Exactly-once reporting" in
// store/doc.go), the claim of a thread's start and the lists of a person's
// and a channel's jobs.
type Jobs struct{ s *Store }

// Jobs returns the Store's jobs.
func (s *Store) Jobs() Jobs { return Jobs{s} }

// Inbox is the acknowledged Slack work every replica takes, under a lease
// and a fencing token ("The inbox" in store/doc.go).
type Inbox struct{ s *Store }

// Inbox returns the Store's inbox.
func (s *Store) Inbox() Inbox { return Inbox{s} }

// Analytics is the visitors analytics cached for every replica: exports
// and other reports, each day's unique visitors and a range's (the trend
// chart fetches a day once, then reads it here: SaveDays, LoadDays,
// SaveRangeTotals), and the exports fetched once their days were closed.
// Its callers name the project in every key.
type Analytics struct{ s *Store }

// Analytics returns the Store's analytics cache.
func (s *Store) Analytics() Analytics { return Analytics{s} }

// Limits bounds how often something happens across replicas: request
// budgets over a sliding window (Budget), and events marked to happen once
// (Once).
type Limits struct{ s *Store }

// Limits returns the Store's budgets and once markers.
func (s *Store) Limits() Limits { return Limits{s} }

// Digests is one kind of digest: channels' subscriptions (one hash without
// expiry, so they outlive every replica), and each posting's claims so that
// it is posted once across replicas (ClaimDigest). The kinds keep apart: a
// channel subscribed to one is not subscribed to the other.
type Digests struct {
	s    *Store
	kind string
}

// Digests returns the Store's visitors digests.
func (s *Store) Digests() Digests { return Digests{s: s} }

// HealthDigests returns the Store's docs health digests.
func (s *Store) HealthDigests() Digests { return Digests{s: s, kind: "health"} }

// Choices is the project each person chose last, per workspace.
type Choices struct{ s *Store }

// Choices returns the Store's people's choices.
func (s *Store) Choices() Choices { return Choices{s} }

// HomeSeen is who opened docsbot's App Home lately: a change of a person's
// job republishes their Home only if they opened it within
// HomeSeenRetention; someone who has not gets no more publishes until they
// open it again, when it is published anyway. One key a person, read or
// written by one command, needs no hash tag and spreads over a cluster.
type HomeSeen struct{ s *Store }

// HomeSeen returns the Store's records of App Home opens.
func (s *Store) HomeSeen() HomeSeen { return HomeSeen{s} }

// PendingStarts is the job starts waiting for their project, or kept for
// Switch project.
type PendingStarts struct{ s *Store }

// PendingStarts returns the Store's pending starts.
func (s *Store) PendingStarts() PendingStarts { return PendingStarts{s} }

// RetryOffers is the starts offered to a person to be tried again, one per
// thread, taken at most once.
type RetryOffers struct{ s *Store }

// RetryOffers returns the Store's retry offers.
func (s *Store) RetryOffers() RetryOffers { return RetryOffers{s} }

// Outcomes is how each question docsbot answered came out: its record per
// project and channel (found by its message or its answer's), changed by
// one script over the version read so that a signal two replicas see is
// written and counted once, and each project's counts per day of the
// questions asked that day, for the quality report; kept
// OutcomeRetention. The outcomes themselves are bot/outcome's table.
type Outcomes struct{ s *Store }

// Outcomes returns the Store's questions' outcomes.
func (s *Store) Outcomes() Outcomes { return Outcomes{s} }
