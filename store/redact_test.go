package store

import (
	"errors"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func TestRedactedWrap(t *testing.T) {
	t.Parallel()
	r := redactURL("redis://user:s3cret@host")
	base := errors.New("dial host: refused")
	if err := r.wrap("store: connect", base); !errors.Is(err, base) {
		t.Errorf("clean error not wrapped: %v", err)
	}
	leaky := errors.New(`parse "redis://user:s3cret@host": bad`)
	err := r.wrap("store: parse", leaky)
	if errors.Is(err, leaky) || strings.Contains(err.Error(), "s3cret") {
		t.Errorf("leaky error kept: %v", err)
	}
}

func TestChunks(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		n    int
	}{
		{"empty", "", 0},
		{"short", "abc", 1},
		{"exactly one chunk", strings.Repeat("a", 64), 1},
		{"one byte over", strings.Repeat("a", 65), 2},
		{"multi-byte", strings.Repeat("ドキュ😀", 30), 0},
		{"invalid utf-8", strings.Repeat("\xff", 130), 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := chunks(tt.in)
			if tt.n > 0 && len(got) != tt.n {
				t.Errorf("%d chunks, want %d", len(got), tt.n)
			}
			m := map[string]string{}
			for i, c := range got {
				if len(c) > chunkBytes || c == "" {
					t.Errorf("chunk %d is %d bytes", i, len(c))
				}
				if utf8.ValidString(tt.in) && !utf8.ValidString(c) {
					t.Errorf("chunk %d cuts a rune: %q", i, c)
				}
				m[fPrompt+string(rune('0'+i))] = c
			}
			if len(got) <= 10 {
				if back := joinChunks(m, fPrompt); back != tt.in {
					t.Errorf("joined = %q, want %q", back, tt.in)
				}
			}
		})
	}
}

func TestTruncateRunes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		n    int
		want string
	}{
		{"", 3, ""},
		{"abc", 3, "abc"},
		{"abcd", 3, "abc"},
		{"日本語テキスト", 3, "日本語"},
	}
	for _, tt := range tests {
		if got := truncateRunes(tt.in, tt.n); got != tt.want {
			t.Errorf("truncateRunes(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
	}
}

func TestMillis(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   time.Duration
		want int64
	}{
		{-time.Second, 0},
		{0, 0},
		{time.Microsecond, 1},
		{1500 * time.Microsecond, 2},
		{time.Second, 1000},
	}
	for _, tt := range tests {
		if got := millis(tt.in); got != tt.want {
			t.Errorf("millis(%v) = %d, want %d", tt.in, got, tt.want)
		}
	}
}
