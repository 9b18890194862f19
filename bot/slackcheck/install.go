package slackcheck

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
)

// FixClient is what to do when Slack refuses the app's client id or secret.
const FixClient = "copy the Client ID and Client Secret from the Slack app's Basic Information page (App Credentials) " +
	"into SLACK_CLIENT_ID and SLACK_CLIENT_SECRET"

// ClientCredentials checks install mode's client id and secret with one
// real call: an exchange of a code that does not exist, which Slack
// refuses with invalid_code only when the id and secret are right. No
// install is made.
func ClientCredentials(ctx context.Context, apiURL, clientID, clientSecret string) Check {
	hc := &http.Client{Timeout: 10 * time.Second}
	_, err := slack.GetOAuthV2ResponseContext(ctx, hc, clientID, clientSecret, "docsbot-doctor-check", "", slack.OAuthOptionAPIURL(apiURL))
	masked := "client " + clientID
	switch code := bot.SlackCode(err); code {
	case "invalid_code", "bad_redirect_uri":
		return Check{OK: true, Line: masked + " and its secret are the app's (Slack" + viaURL(apiURL) + " knows them)"}
	case "invalid_client_id", "bad_client_secret", "invalid_client":
		return Check{Line: masked + " refused (" + code + ")", Fix: FixClient}
	case "":
		if err == nil {
			return Check{Line: masked + ": Slack exchanged a code that does not exist", Fix: "check SLACK_API_URL (" + apiURL + ")"}
		}
	}
	return slackFailure(ctx, err, masked, apiURL, FixClient, []string{clientSecret})
}

// InstallPage checks that the public URL reaches a docsbot serving the
// install flow, and that the redirect URL it sends Slack is the public
// URL's: GET publicURL/slack/install, not followed. A docsbot not running
// yet is a warning, not a failure (OK false, with the words to say so).
func InstallPage(ctx context.Context, publicURL, pathInstall, pathRedirect string) Check {
	hc := &http.Client{Timeout: 10 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, publicURL+pathInstall, nil)
	if err != nil {
		return Check{Line: publicURL + " is not a URL: " + err.Error(), Fix: "set DOCSBOT_PUBLIC_URL to docsbot's https address, such as https://docsbot.example.com"}
	}
	resp, err := hc.Do(req)
	if err != nil {
		return Check{Line: publicURL + pathInstall + " does not answer (is docsbot running behind it?): " + err.Error(),
			Fix: "start docsbot serve, and check that DOCSBOT_PUBLIC_URL reaches it (the load balancer forwards /slack/)"}
	}
	resp.Body.Close()
	loc, _ := url.Parse(resp.Header.Get("Location"))
	if resp.StatusCode != http.StatusFound || loc == nil || !strings.HasSuffix(loc.Path, "/oauth/v2/authorize") {
		return Check{Line: publicURL + pathInstall + " answers " + resp.Status + ", not Slack's consent screen",
			Fix: "check that DOCSBOT_PUBLIC_URL reaches docsbot in install mode (http mode, SLACK_CLIENT_ID set, SLACK_BOT_TOKEN not set)"}
	}
	want := publicURL + pathRedirect
	if got := loc.Query().Get("redirect_uri"); got != want {
		return Check{Line: "the install sends Slack back to " + got + ", not " + want, Fix: "set DOCSBOT_PUBLIC_URL to the address the replicas are reached at"}
	}
	return Check{OK: true, Line: publicURL + pathInstall + " sends people to Slack, who send them back to " + want +
		" (the app's Redirect URL must be exactly this)"}
}
