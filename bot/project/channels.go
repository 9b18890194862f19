package project

import "strings"

// WithChannelDefaults returns s with defaults (channel id -> project name)
// as the channels' default projects (ForChannel) over those of the
// projects file: the defaults a workspace set in Slack. A name s does not
// hold is left out, and the file's default of that channel stays. s itself
// when there is nothing to change.
func (s *Set) WithChannelDefaults(defaults map[string]string) *Set {
	if len(defaults) == 0 {
		return s
	}
	out := newSet(s.All(), s.implicit)
	for channel, name := range defaults {
		if i, ok := out.byName[strings.ToLower(name)]; ok {
			out.byChannel[channel] = i
		}
	}
	return out
}
