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

// RangeTitle describes the visitors range from..to (to EXCLUDED, either may
// be empty) for people: "2025-11-01 to 2025-11-07 inclusive" for whole days,
// "since 2025-11-01", "the API's default range" with neither.
func RangeTitle(from, to string) string {
	toDate, toOK := ParseDate(to)
	dateOnly := toOK && len(to) == len(time.DateOnly)
	switch {
	case from != "" && to != "" && dateOnly:
		return from + " to " + toDate.AddDate(0, 0, -1).Format(time.DateOnly) + " inclusive"
	case from != "" && to != "":
		return from + " up to " + to
	case from != "":
		return "since " + from
	case to != "":
		return "before " + to
	}
	return "the API's default range"
}
