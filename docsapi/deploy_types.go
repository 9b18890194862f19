package docsapi

import "time"

// DeployState is the state of a deployment or a preview as the update-status
// endpoint reports it. Values the client does not know are kept as they are
// and count as not done, so that a caller keeps following the deployment.
type DeployState string

// The deployment states documented by the service.
const (
	DeployQueued     DeployState = "queued"
	DeployInProgress DeployState = "in_progress"
	DeploySuccess    DeployState = "success"
	DeployFailure    DeployState = "failure"
)

// Done reports whether the deployment has ended: success or failure. An
// unknown state is not done.
func (s DeployState) Done() bool { return s == DeploySuccess || s == DeployFailure }

// Known reports whether s is one of the documented states.
func (s DeployState) Known() bool {
	return s == DeployQueued || s == DeployInProgress || s.Done()
}

// Deployment is what starting a deployment ([Client.Deploy]) or a preview
// ([Client.Preview]) answers (202).
type Deployment struct {
	// StatusID identifies the deployment; follow it with [Client.DeployStatus].
	StatusID string `json:"statusId"`
	// PreviewURL is the address of the preview; previews only, and "" when
	// the service sent none.
	PreviewURL string `json:"previewUrl,omitempty"`
}

// DeployAuthor is the person whose change a deployment carries.
type DeployAuthor struct {
	Name         string `json:"name"`
	AvatarURL    string `json:"avatarUrl"`
	GitHubUserID int64  `json:"githubUserId"`
}

// FilesChanged lists the paths a deployment's commit added, modified and
// removed.
type FilesChanged struct {
	Added    []string `json:"added"`
	Modified []string `json:"modified"`
	Removed  []string `json:"removed"`
}

// DeployCommit is the commit a deployment builds.
type DeployCommit struct {
	SHA          string       `json:"sha"`
	Ref          string       `json:"ref"`
	Message      string       `json:"message"`
	FilesChanged FilesChanged `json:"filesChanged"`
}

// DeployStatus is the state of one deployment or preview
// (GET /v1/project/update-status/{statusId}). The service marks no field as
// required: every field may be missing and is then zero.
type DeployStatus struct {
	// ID is the status id (the service's "_id").
	ID        string      `json:"id"`
	ProjectID string      `json:"projectId"`
	Status    DeployState `json:"status"`
	// CreatedAt and EndedAt are zero when absent or unparsable; EndedAt is
	// zero while the deployment runs.
	CreatedAt time.Time `json:"createdAt,omitzero"`
	EndedAt   time.Time `json:"endedAt,omitzero"`
	Summary   string    `json:"summary"`
	Logs      []string  `json:"logs"`
	Subdomain string    `json:"subdomain"`
	// Author is nil when the service sends null or nothing.
	Author *DeployAuthor `json:"author"`
	Commit DeployCommit  `json:"commit"`
	// Source says what started the deployment, such as "api", "github" or
	// "dashboard"; kept as sent.
	Source string `json:"source"`
}
