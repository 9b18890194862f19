package agent

// SwitchID is switchID, for tests that wait for a kept start to expire.
var SwitchID = switchID

// MaxUncheckedWaits is maxUncheckedWaits, for tests that exhaust it.
const MaxUncheckedWaits = maxUncheckedWaits
