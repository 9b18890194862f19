package secret_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/docsbot/docsbot/docsapi/secret"
)

// A private key as a build log might print it, with the body lines the
// tests look for.
const (
	pemBody1 = "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun"
	pemBody2 = "VTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxK"
	pemKey   = "-----BEGIN RSA PRIVATE KEY-----\n" + pemBody1 + "\n" + pemBody2 + "\n-----END RSA PRIVATE KEY-----"
)

func TestRedact(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in, want string
		gone           []string // must not be in the output
	}{
		{name: "plain log lines stay", in: "Building 42 pages\nError: broken link /quickstart#install in introduction.mdx",
			want: "Building 42 pages\nError: broken link /quickstart#install in introduction.mdx"},
		{name: "docs API key", in: "using key mint_0123456789abcdefghij for the deploy",
			want: "using key [redacted token] for the deploy"},
		{name: "assistant key", in: "mint_dsc_0123456789abcdefghij", want: "[redacted token]"},
		{name: "Slack bot token", in: "token xoxb-1111111111-2222222222-abcdefghijklmnop!", want: "token [redacted token]!"},
		{name: "Slack user, legacy, refresh tokens", in: "xoxp-11-22-33-abcdef xoxa-2-abcdefgh xoxe-1-abcdefgh xoxr-abcdefgh xoxs-abcdefgh",
			want: "[redacted token] [redacted token] [redacted token] [redacted token] [redacted token]"},
		{name: "rotated Slack token", in: "xoxe.xoxp-1-Mi0yLTExMTE", want: "[redacted token]"},
		{name: "app-level token", in: "SLACK_APP=xapp-1-A0123-4567-abcdef", want: "SLACK_APP=[redacted token]"},
		{name: "GitHub tokens", in: "ghp_0123456789abcdefghijABCDEFGHIJ0123 gho_0123456789abcdefghij ghu_0123456789abcdefghij ghs_0123456789abcdefghij ghr_0123456789abcdefghij github_pat_11ABCDEFG0123456789_abcdefghijklmnop",
			want: "[redacted token] [redacted token] [redacted token] [redacted token] [redacted token] [redacted token]"},
		{name: "AWS access key ids", in: "AKIAIOSFODNN7EXAMPLE and ASIAY34FZKBOKMUTVV7A", want: "[redacted token] and [redacted token]"},
		{name: "AWS secret access key", in: "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
			want: "aws_secret_access_key = [redacted secret]"},
		{name: "AWS secret in a listing", in: "secret_key     wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY shared-credentials-file",
			want: "secret_key     [redacted secret] shared-credentials-file"},
		{name: "bearer token", in: "curl -H 'X: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abc' https://api",
			gone: []string{"eyJhbGciOiJIUzI1NiJ9"}},
		{name: "bearer in prose stays", in: "the bearer of bad news", want: "the bearer of bad news"},
		{name: "Authorization header", in: "> Authorization: Basic dXNlcjpwYXNz\n> Accept: */*",
			want: "> Authorization: [redacted secret]\n> Accept: */*"},
		{name: "Authorization in JSON", in: `{"Authorization": "Bearer abcdefghijkl"}`, gone: []string{"abcdefghijkl"}},
		{name: "environment variables", in: "DOCS_API_KEY=abc123 SLACK_SIGNING_SECRET=s3cr3t DB_PASSWORD='p a s s' NODE_ENV=production",
			want: "DOCS_API_KEY=[redacted secret] SLACK_SIGNING_SECRET=[redacted secret] DB_PASSWORD='[redacted secret]' NODE_ENV=production"},
		{name: "names of every kind", in: "GH_TOKEN=a1 MY_PASSWD=a2 GCP_CREDENTIALS=a3 BASIC_AUTH=a4 PRIVATE_PEM=a5",
			want: "GH_TOKEN=[redacted secret] MY_PASSWD=[redacted secret] GCP_CREDENTIALS=[redacted secret] BASIC_AUTH=[redacted secret] PRIVATE_PEM=[redacted secret]"},
		{name: "YAML and JSON fields", in: "apiKey: abc123\nclient_secret: \"xyz\"\n{\"x-auth-token\": \"t0k\", \"title\": \"Intro\"}",
			want: "apiKey: [redacted secret]\nclient_secret: \"[redacted secret]\"\n{\"x-auth-token\": \"[redacted secret]\", \"title\": \"Intro\"}"},
		{name: "JSON inside a string", in: `body "{\"password\":\"hunter2\"}"`, gone: []string{"hunter2"}},
		{name: "words that only contain the names stay", in: "author: Ada\nmonkey: 3\ntokenizer=fast",
			want: "author: Ada\nmonkey: 3\ntokenizer=fast"},
		{name: "a secret behind a name that is not one", in: "Error: password=hunter2", want: "Error: password=[redacted secret]"},
		{name: "empty value", in: "TOKEN=\nnext: 1", want: "TOKEN=\nnext: 1"},
		{name: "URL credentials", in: "cloning https://x-access-token:ghs_abc@github.com/acme/docs.git and redis://:pa@ss@cache:6379/0",
			want: "cloning https://[redacted]@github.com/acme/docs.git and redis://[redacted]@cache:6379/0"},
		{name: "URL without credentials", in: "see https://docs.example.com/a@b", want: "see https://docs.example.com/a@b"},
		{name: "private key", in: "key:\n" + pemKey + "\ndone", want: "key:\n[redacted private key]\ndone"},
		{name: "private key cut short", in: "-----BEGIN OPENSSH PRIVATE KEY-----\n" + pemBody1, want: "[redacted private key]"},
		{name: "private key whose BEGIN was cut off", in: "Step 3\n" + pemBody1 + "\n" + pemBody2 + "\n-----END PRIVATE KEY-----\nStep 4",
			want: "Step 3\n[redacted private key]\nStep 4"},
		{name: "PGP private key", in: "-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n" + pemBody1 + "\n-----END PGP PRIVATE KEY BLOCK-----",
			want: "[redacted private key]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := secret.Redact(tt.in)
			if tt.want != "" && got != tt.want {
				t.Errorf("Redact(%q)\n = %q\nwant %q", tt.in, got, tt.want)
			}
			for _, g := range tt.gone {
				if strings.Contains(got, g) {
					t.Errorf("Redact(%q) = %q, still holding %q", tt.in, got, g)
				}
			}
			if again := secret.Redact(got); again != got {
				t.Errorf("Redact is not idempotent on %q: %q then %q", tt.in, got, again)
			}
		})
	}
}

// shape makes a secret of one shape from a seed: the whole text to put in a
// log, and the part that must not come out.
type shape struct {
	name string
	make func(r *rand.Rand) (text, secret string)
}

const (
	alnum     = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	upperNums = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	b64       = alnum + "+/"
)

func pick(r *rand.Rand, chars string, least, most int) string {
	n := least + r.IntN(most-least+1)
	b := make([]byte, n)
	for i := range b {
		b[i] = chars[r.IntN(len(chars))]
	}
	return string(b)
}

func oneOf(r *rand.Rand, s ...string) string { return s[r.IntN(len(s))] }

// shapes are the secrets Redact must take out, each made the way its issuer
// makes them (the lengths and letters they use).
var shapes = []shape{
	{"docs key", func(r *rand.Rand) (string, string) {
		s := oneOf(r, "mint_", "mint_dsc_") + pick(r, alnum+"_-", 16, 48)
		return s, s
	}},
	{"Slack token", func(r *rand.Rand) (string, string) {
		s := oneOf(r, "xoxb-", "xoxp-", "xoxa-2-", "xoxe-1-", "xoxr-", "xoxs-", "xoxe.xoxp-1-") + pick(r, alnum+"-", 16, 60)
		return s, s
	}},
	{"app-level token", func(r *rand.Rand) (string, string) { s := "xapp-1-" + pick(r, alnum+"-", 16, 60); return s, s }},
	{"GitHub token", func(r *rand.Rand) (string, string) {
		if r.IntN(3) == 0 {
			s := "github_pat_" + pick(r, alnum+"_", 40, 82)
			return s, s
		}
		s := oneOf(r, "ghp_", "gho_", "ghu_", "ghs_", "ghr_") + pick(r, alnum, 36, 36)
		return s, s
	}},
	{"AWS access key id", func(r *rand.Rand) (string, string) {
		s := oneOf(r, "AKIA", "ASIA") + pick(r, upperNums, 16, 16)
		return s, s
	}},
	{"AWS secret access key", func(r *rand.Rand) (string, string) {
		s := pick(r, b64, 40, 40)
		return oneOf(r, "aws_secret_access_key = ", "AWS_SECRET_ACCESS_KEY=", `"aws_secret_access_key": "`, "secret_key     ") + s, s
	}},
	{"bearer token", func(r *rand.Rand) (string, string) {
		s := pick(r, alnum+"._~+/-", 20, 80)
		return oneOf(r, "Bearer ", "bearer ", "Authorization: Bearer ", "authorization=") + s, s
	}},
	{"setting", func(r *rand.Rand) (string, string) {
		s := pick(r, alnum+"-_./+=!@%", 8, 40)
		name := oneOf(r, "DOCS_API_KEY", "SLACK_SIGNING_SECRET", "GH_TOKEN", "DB_PASSWORD", "FTP_PASSWD", "GCP_CREDENTIALS", "BASIC_AUTH",
			"PRIVATE_DATA", "apiKey", "client_secret", "x-auth-token", "accessToken")
		switch r.IntN(4) {
		case 0:
			return name + "=" + s, s
		case 1:
			return name + ": " + s, s
		case 2:
			return `"` + name + `": "` + s + `"`, s
		}
		return name + "='" + s + "'", s
	}},
	{"private key", func(r *rand.Rand) (string, string) {
		body := pick(r, b64, 64, 64)
		kind := oneOf(r, "", "RSA ", "EC ", "OPENSSH ", "ENCRYPTED ")
		return "-----BEGIN " + kind + "PRIVATE KEY-----\n" + body + "\n" + pick(r, b64, 20, 64) + "\n-----END " + kind + "PRIVATE KEY-----", body
	}},
	{"URL credentials", func(r *rand.Rand) (string, string) {
		s := pick(r, alnum, 12, 30)
		return oneOf(r, "https://", "redis://", "postgres://") + pick(r, "abcdefgh", 1, 8) + ":" + s + "@" + oneOf(r, "github.com/acme/docs.git", "cache:6379/0", "db"), s
	}},
}

// FuzzRedact: whatever surrounds a secret of each shape, it does not come
// out, Redact does not panic, and redacting again changes nothing.
func FuzzRedact(f *testing.F) {
	for _, seed := range []struct {
		before, after string
		n             uint64
	}{
		{"", "", 0},
		{"Cloning repo\n", "\nError: build failed", 1},
		{"export ", " && npm run build", 2},
		{"Authorization: ", "", 3},
		{"https://", "@host", 4},
		{"-----BEGIN PRIVATE KEY-----\n", "", 5},
		{"note=", "\n-----END RSA PRIVATE KEY-----", 6},
		{"[redacted", "]", 7},
		{"TOKEN=\"", "\" Bearer", 8},
		{"\xff\xfe", "é", 9},
	} {
		f.Add(seed.before, seed.after, seed.n)
	}
	f.Fuzz(func(t *testing.T, before, after string, n uint64) {
		r := rand.New(rand.NewPCG(n, n>>32))
		sh := shapes[n%uint64(len(shapes))]
		text, sec := sh.make(r)
		// The secret is set apart from what surrounds it by a space or a
		// line break, as a log writes it; glued to other letters it would
		// be another word.
		in := before + oneOf(r, " ", "\n", "\t") + text + oneOf(r, " ", "\n", "\t") + after
		got := secret.Redact(in)
		if strings.Contains(got, sec) && !strings.Contains(before+after, sec) {
			t.Errorf("a %s came through Redact:\n in: %q\nout: %q", sh.name, in, got)
		}
		if again := secret.Redact(got); again != got {
			t.Errorf("Redact is not idempotent:\n in: %q\n once: %q\ntwice: %q", in, got, again)
		}
		_ = secret.Redact(before + after)
	})
}
