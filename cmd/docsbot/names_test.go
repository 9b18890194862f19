package main

import (
	"github.com/docsbot/docsbot/cmd/internal/config"
	"github.com/docsbot/docsbot/cmd/internal/settings"
)

// The settings' names and helpers under the short names the tests use.
const (
	envAPIURL          = config.EnvAPIURL
	envAPIKey          = config.EnvAPIKey
	envProject         = config.EnvProject
	envProjectsFile    = config.EnvProjectsFile
	envSlackBotToken   = config.EnvSlackBotToken
	envSlackAppToken   = config.EnvSlackAppToken
	envSlackAPIURL     = config.EnvSlackAPIURL
	envSlackMode       = config.EnvSlackMode
	envSigningSecret   = config.EnvSigningSecret
	envRedisURL        = config.EnvRedisURL
	envRedisPrefix     = config.EnvRedisPrefix
	envPollInterval    = config.EnvPollInterval
	envPollMaxInterval = config.EnvPollMaxInterval
	envAllowedUsers    = config.EnvAllowedUsers
	envAllowedChannels = config.EnvAllowedChannels
	envEditors         = config.EnvEditors
	envAuditText       = config.EnvAuditText
	envAuditRetention  = config.EnvAuditRetention
	envVisitorsTTL     = config.EnvVisitorsTTL
	envVisitorsBudget  = config.EnvVisitorsBudget
	envAnalyticsBudget = config.EnvAnalyticsBudget
	envAnalyticsUser   = config.EnvAnalyticsUser
	envAnalyticsGuest  = config.EnvAnalyticsGuest
	envDigestReserve   = config.EnvDigestReserve
	envDigestTime      = config.EnvDigestTime
	envHTTPAddr        = config.EnvHTTPAddr
	envOpsAddr         = config.EnvOpsAddr
	envLogFormat       = config.EnvLogFormat
	envLogLevel        = config.EnvLogLevel
	envAssistantKey    = config.EnvAssistantKey
	envDomain          = config.EnvDomain
	envDiscoveryURL    = config.EnvDiscoveryURL
	envSiteURL         = config.EnvSiteURL
	envAskPerUser      = config.EnvAskPerUser
	envRequestsChannel = config.EnvRequestsChannel
)

type flagValues = settings.Values

func settingsTable() settings.Table { return config.Table() }

func defaultOf(env string) string { return config.Table().Of(env).Default }
