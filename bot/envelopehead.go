package bot

import (
	"bytes"
	"strings"

	"github.com/tidwall/gjson"
)

// readEnvelope reads a Socket Mode frame: the envelope's fields, with its
// payload's bytes, not decoded (none for a payload that is ignored); ok is
// false for a frame that is no JSON object, has no type, or has a field of
// the wrong kind. It keeps nothing of data.
//
// It reads with gjson, which walks past the payload without decoding it:
// json.Unmarshal went over each frame's bytes twice (checkValid, then the
// decoding) before its payload was decoded twice more, and most frames are
// the bot's own posts and edits, blocks and all, which nothing reads
// (ignoredMessage; BENCHMARKS.md, "Frames read once").
func readEnvelope(data []byte) (env *envelope, ok bool) {
	data = bytes.TrimLeft(data, " \t\r\n")
	if !gjson.ValidBytes(data) {
		return nil, false
	}
	s := string(data)
	root := gjson.Parse(s)
	if !root.IsObject() {
		return nil, false
	}
	env, ok = new(envelope), true
	root.ForEach(func(k, v gjson.Result) bool {
		if k.Str == "payload" {
			// A payload nothing reads is not kept.
			if env.ignored = ignoredMessage(v); !env.ignored {
				env.Payload = []byte(v.Raw)
			}
			return true
		}
		if v.Type == gjson.Null {
			return true // as json.Unmarshal: the field stays as it was
		}
		str := func(dst *string) { *dst, ok = v.Str, v.Type == gjson.String }
		num := func(dst *int) { *dst, ok = int(v.Int()), isInt(v) }
		switch k.Str {
		case "type":
			str(&env.Type)
		case "envelope_id":
			str(&env.EnvelopeID)
		case "retry_reason":
			str(&env.RetryReason)
		case "reason":
			str(&env.Reason)
		case "retry_attempt":
			num(&env.RetryAttempt)
		case "num_connections":
			num(&env.NumConnections)
		}
		return ok
	})
	if !ok || env.Type == "" {
		return nil, false
	}
	return env, true
}

// isInt reports whether v is a JSON number that is a whole int.
func isInt(v gjson.Result) bool {
	return v.Type == gjson.Number && !strings.ContainsAny(v.Raw, ".eE")
}

// ignoredMessage reports whether an Events API payload is a message event
// the bot acks and does nothing more with, whoever it is (onMessage,
// notAPersonsPost): its own posts and edits, other bots', joins, deletions.
// It reads only the event's type, subtype, bot_id and user, with gjson, so
// that the blocks of such a message are never decoded. Where its reading
// could differ from json.Unmarshal's (a key that matches one of those only
// when case is ignored, as json.Unmarshal matches them; a value that is no
// string) it says false, and the payload is decoded whole.
func ignoredMessage(payload gjson.Result) bool {
	if !payload.IsObject() {
		return false
	}
	var outer, event gjson.Result
	clear := true
	payload.ForEach(func(k, v gjson.Result) bool {
		switch {
		case k.Str == "type":
			outer = v
		case k.Str == "event":
			event = v
		case strings.EqualFold(k.Str, "type"), strings.EqualFold(k.Str, "event"):
			clear = false
		}
		return clear
	})
	if !clear || outer.Type != gjson.String || outer.Str != "event_callback" || !event.IsObject() {
		return false
	}
	var fields [4]gjson.Result // type, subtype, bot_id, user
	names := [4]string{"type", "subtype", "bot_id", "user"}
	event.ForEach(func(k, v gjson.Result) bool {
		for i, name := range names {
			switch {
			case k.Str == name:
				fields[i] = v
			case strings.EqualFold(k.Str, name):
				clear = false
			}
		}
		return clear
	})
	if !clear {
		return false
	}
	for _, f := range fields {
		if f.Exists() && f.Type != gjson.String && f.Type != gjson.Null {
			return false
		}
	}
	return fields[0].Str == "message" && notAPersonsPost(fields[1].Str, fields[2].Str, fields[3].Str)
}
