package bot

import "testing"

// TestSightsCoverEveryCase walks the table of sights: one row for each
// viewer and kind of channel, a reason exactly when the words are left out,
// and no words in a shared channel, where a person is answered privately.
func TestSightsCoverEveryCase(t *testing.T) {
	t.Parallel()
	for _, who := range []viewer{member, outsider, unsure, nobody} {
		for _, shared := range []bool{false, true} {
			n := 0
			for _, r := range sights() {
				if r.who == who && r.shared == shared {
					n++
				}
			}
			if n != 1 {
				t.Errorf("viewer %d, shared %v: %d rows, want 1", who, shared, n)
			}
			s := sightOf(who, shared)
			if (s.Why == "") != s.Words {
				t.Errorf("viewer %d, shared %v: %+v: a reason is given exactly when the words are left out", who, shared, s)
			}
			if shared && (s.Words && !s.Private || who != nobody && !s.Private) {
				t.Errorf("viewer %d in a shared channel: %+v, want no words in the channel and a person answered privately", who, s)
			}
		}
	}
}
