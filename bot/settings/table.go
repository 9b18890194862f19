package settings

import "github.com/docsbot/docsbot/bot"

// The settings a workspace's admins may set in Slack, one table, read by
// the Home (where each value comes from), the modals (their inputs and
// checks), `docsbot doctor` and the README (cmd/docsbot's test keeps its
// table the same). The one rule (bot/setinslack.go): a value set in Slack
// for a workspace wins over the environment and the projects file there;
// cleared (an empty input, or Clear on the Home), the environment's
// applies again. A share is never set above the environment's value, its
// ceiling. What is not in the table is set only where docsbot runs
// (NeverInSlack).

// Kind is what a setting holds, which decides its input and its check.
type Kind string

// The kinds of settings.
const (
	// KindPeople: users (a multi-users select) and user groups (their S…
	// ids, typed: Slack has no select of user groups).
	KindPeople Kind = "people"
	// KindChannel: one channel (a conversations select).
	KindChannel Kind = "channel"
	// KindShare: a whole number an hour, at most the environment's.
	KindShare Kind = "share"
	// KindMode: a channel's answer mode, as `/docs-ask here MODE` sets it.
	KindMode Kind = "answer mode"
	// KindProject: a channel's default docs project, one of the
	// workspace's (bot.ProjectsIn).
	KindProject Kind = "project"
	// KindSwitch: whether docsbot works in a channel.
	KindSwitch Kind = "on or off"
	// KindTime: when the digests are due, as DOCSBOT_DIGEST_TIME says it
	// ("Mon 09:00 Europe/Paris"): a day (a select), a time (a time
	// picker) and a zone (an IANA name, typed).
	KindTime Kind = "digest time"
	// KindDigest: the channels that get a digest (a multi conversations
	// select), kept as the digest's subscriptions, the records its
	// command makes (Setting.Digest).
	KindDigest Kind = "digest channels"
)

// The modals that set them, by their titles.
const (
	modalChannels = "Channels"
	modalPeople   = "People"
	modalLimits   = "Digests and limits"
)

// Setting is a row of the table.
type Setting struct {
	// Key is the setting's key: in store.WorkspaceSettings for a
	// workspace's (bot.SettingEditors, ...) and, per channel,
	// bot.ChannelSetting's what (bot.ChannelProject, bot.ChannelOff);
	// keyAnswers is kept in the help channels' modes (store.HelpChannels).
	Key string
	// Label is the input's label, and the setting's name on the Home.
	Label string
	// Modal is the title of the modal that sets it.
	Modal string
	Kind  Kind
	// PerChannel is set for a setting of one channel.
	PerChannel bool
	// Env is what the setting goes over where docsbot runs: an
	// environment variable, or the projects file; for a digest's channels,
	// the command that subscribes a channel, whose records they are.
	Env string
	// Doc says what it does, as the README's table does.
	Doc string
	// None says what no value where docsbot runs means, for the Home.
	None string
	// Digest is the digest a KindDigest setting subscribes channels to.
	Digest *Digest
}

// Digest is a digest whose channels are set in Slack: its subscriptions
// are made and removed as its command's `digest weekly` and `digest off`
// in each channel make them (Deps.Digests keeps them, by Name).
type Digest struct {
	// Name names its subscriptions in Deps.Digests.
	Name string
	// Noun is the digest in people's words: "docs visitors digest".
	Noun string
	// Command is its slash command, whose `digest` subcommand sets it in
	// one channel; Audit is what its audit records of a change say before
	// "weekly" or "off" ("digest", "health digest"), as the command's do.
	Command, Audit string
}

// The names of the digests (Deps.Digests).
const (
	DigestVisitors = "visitors"
	DigestHealth   = "health"
)

// The keys of the digests' channels: no setting of store.WorkspaceSettings
// (their subscriptions are kept where the commands keep them), the block
// ids of their inputs.
const (
	keyVisitorsDigest = "visitors_digest_channels"
	keyHealthDigest   = "health_digest_channels"
)

// keyAnswers is the answer mode's row: kept where `/docs-ask here` keeps
// it (store.HelpChannels), not in the workspace's settings.
const keyAnswers = "answers"

// Table is every setting that may be set in Slack.
func Table() []Setting {
	return []Setting{
		{Key: keyAnswers, Label: "Answers", Modal: modalChannels, Kind: KindMode, PerChannel: true, Env: "DOCSBOT_ANSWER_CHANNELS",
			Doc: "how docsbot answers in a channel (auto, private, mention, off), as `/docs-ask here MODE` sets it"},
		{Key: bot.ChannelProject, Label: "Docs project", Modal: modalChannels, Kind: KindProject, PerChannel: true, Env: "DOCSBOT_PROJECTS_FILE",
			Doc: "the channel's default docs project, over the projects file's `channels`"},
		{Key: bot.ChannelOff, Label: "docsbot here", Modal: modalChannels, Kind: KindSwitch, PerChannel: true, Env: "DOCSBOT_ALLOWED_CHANNELS",
			Doc: "whether docsbot works in the channel at all; a channel the allow-list leaves out stays out"},
		{Key: bot.SettingEditors, Label: "Editors", Modal: modalPeople, Kind: KindPeople, Env: "DOCSBOT_EDITORS",
			Doc: "who may start docs agent jobs, instead of `DOCSBOT_EDITORS` and the projects' editors", None: "everyone, unless the projects file names editors"},
		{Key: bot.SettingExperts, Label: "Experts", Modal: modalPeople, Kind: KindPeople, Env: "DOCSBOT_EXPERTS",
			Doc: "who *Ask an expert* calls, instead of `DOCSBOT_EXPERTS` and the projects' experts", None: "nobody, unless the projects file names experts"},
		{Key: bot.SettingAdmins, Label: "Admins", Modal: modalPeople, Kind: KindPeople, Env: "DOCSBOT_ADMINS",
			Doc: "who may set docsbot up, besides the workspace's admins and owners and whoever installed docsbot", None: "nobody besides them"},
		{Key: bot.SettingDigestTime, Label: "Digest time", Modal: modalLimits, Kind: KindTime, Env: "DOCSBOT_DIGEST_TIME",
			Doc: "when the workspace's digests are due: weekly ones on its day, daily ones every day, at its time in its zone"},
		{Key: keyVisitorsDigest, Label: "Visitors digest channels", Modal: modalLimits, Kind: KindDigest, Digest: &Digest{Name: DigestVisitors, Noun: "docs visitors digest", Command: "/docs-visitors", Audit: "digest"}, Env: "/docs-visitors digest",
			Doc: "the channels that get the weekly docs visitors digest, as `/docs-visitors digest weekly` and `off` in each set them"},
		{Key: keyHealthDigest, Label: "Health digest channels", Modal: modalLimits, Kind: KindDigest, Digest: &Digest{Name: DigestHealth, Noun: "docs health digest", Command: "/docs-health", Audit: "health digest"}, Env: "/docs-health digest",
			Doc: "the channels that get the weekly docs health digest, as `/docs-health digest weekly` and `off` in each set them"},
		{Key: bot.SettingRequestsChannel, Label: "Requests channel", Modal: modalLimits, Kind: KindChannel, Env: "DOCSBOT_REQUESTS_CHANNEL",
			Doc: "where *Ask the docs team* posts the questions the docs did not answer", None: "none: no *Ask the docs team*"},
		{Key: bot.SettingAskPerUser, Label: "Questions per person an hour", Modal: modalLimits, Kind: KindShare, Env: "DOCSBOT_ASK_PER_USER",
			Doc: "a person's share of the questions to the docs, at most the environment's"},
		{Key: bot.SettingAskBudget, Label: "Questions per workspace an hour", Modal: modalLimits, Kind: KindShare, Env: "DOCSBOT_ASK_BUDGET",
			Doc: "the workspace's questions to the docs, at most the environment's"},
	}
}

// NeverInSlack are the settings set only where docsbot runs.
const NeverInSlack = "secrets (Slack's tokens and signing secret, the docs API and assistant keys of the environment, " +
	"`DOCSBOT_SECRETS_KEY`), addresses (`DOCS_API_URL`, `DOCSBOT_PUBLIC_URL`, ...), Redis, the Slack mode and the ops listener"

// row is the table's row of key.
func row(key string) Setting {
	for _, s := range Table() {
		if s.Key == key {
			return s
		}
	}
	return Setting{Key: key, Label: key}
}

// rowsOf are the table's rows set by modal.
func rowsOf(modal string) []Setting {
	var out []Setting
	for _, s := range Table() {
		if s.Modal == modal {
			out = append(out, s)
		}
	}
	return out
}
