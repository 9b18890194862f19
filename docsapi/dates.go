package docsapi

import "time"

// ParseDate reads a date or time in one of the forms the service accepts for
// the visitors range (dateFrom and dateTo): a calendar date (YYYY-MM-DD),
// RFC 3339 with or without fractional seconds, and the ISO 8601 date-times
// without a zone (read as UTC), with a basic-format offset (+0100), or to the
// minute (2025-11-01T08:00, with or without an offset). It reports false for
// anything else, surrounding spaces included.
func ParseDate(s string) (t time.Time, ok bool) {
	layouts := [...]string{
		time.DateOnly,
		time.RFC3339Nano,
		"2006-01-02T15:04:05.999999999Z0700",
		"2006-01-02T15:04:05.999999999",
		"2006-01-02T15:04Z07:00",
		"2006-01-02T15:04",
	}
	for _, layout := range layouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}
