package main

import (
	"bytes"
	"debug/buildinfo"
	"debug/elf"
	"errors"
	"io"
	"maps"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/cmd/internal/config"

	"go.yaml.in/yaml/v3"

	"github.com/docsbot/docsbot/cmd/internal/testbin"
)

// deployDir is the deploy folder, seen from this package's directory.
const deployDir = "../../deploy"

// knownSettings are the names of every environment variable docsbot reads,
// from the settings table.
func knownSettings(t *testing.T) map[string]bool {
	t.Helper()
	known := map[string]bool{}
	for _, s := range settingsTable() {
		known[s.Env] = true
	}
	return known
}

// goRuntimeEnv reports whether name is read by the Go runtime, which the
// pod may set beside docsbot's settings.
func goRuntimeEnv(name string) bool { return name == "GOMEMLIMIT" || name == "GOGC" }

// secretSettings names the settings that hold secrets.
func secretSettings() []string {
	var out []string
	for _, s := range settingsTable() {
		if s.Secret {
			out = append(out, s.Env)
		}
	}
	return out
}

// decodeStrict decodes one YAML document into v, refusing keys v has no
// field for: a misspelt key fails the test instead of being ignored.
func decodeStrict(doc []byte, v any) error {
	dec := yaml.NewDecoder(bytes.NewReader(doc))
	dec.KnownFields(true)
	return dec.Decode(v)
}

// yamlDocuments splits a YAML stream into its documents.
func yamlDocuments(t *testing.T, path string) [][]byte {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(raw))
	var docs [][]byte
	for {
		var n yaml.Node
		err := dec.Decode(&n)
		if errors.Is(err, io.EOF) {
			return docs
		}
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if len(n.Content) == 0 {
			continue // an empty document
		}
		b, err := yaml.Marshal(&n)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, b)
	}
}

// The parts of the compose file the deployment relies on.
type composeFile struct {
	Name     string                    `yaml:"name"`
	Services map[string]composeService `yaml:"services"`
	Volumes  map[string]any            `yaml:"volumes"`
}

type composeService struct {
	Image string `yaml:"image"`
	Build struct {
		Context    string `yaml:"context"`
		Dockerfile string `yaml:"dockerfile"`
	} `yaml:"build"`
	Command     []string          `yaml:"command"`
	EnvFile     string            `yaml:"env_file"`
	Environment map[string]string `yaml:"environment"`
	DependsOn   map[string]struct {
		Condition string `yaml:"condition"`
	} `yaml:"depends_on"`
	Deploy struct {
		Replicas int `yaml:"replicas"`
	} `yaml:"deploy"`
	Healthcheck struct {
		Test        []string `yaml:"test"`
		Interval    string   `yaml:"interval"`
		Timeout     string   `yaml:"timeout"`
		Retries     int      `yaml:"retries"`
		StartPeriod string   `yaml:"start_period"`
	} `yaml:"healthcheck"`
	Volumes         []string `yaml:"volumes"`
	Restart         string   `yaml:"restart"`
	StopGracePeriod string   `yaml:"stop_grace_period"`
	ReadOnly        bool     `yaml:"read_only"`
	CapDrop         []string `yaml:"cap_drop"`
	SecurityOpt     []string `yaml:"security_opt"`
}

// envRedisPassword is the compose file's Redis password, from the .env at
// the repository root (compose's, not a setting of docsbot).
const envRedisPassword = "REDIS_PASSWORD"

// interpolated matches a compose interpolation, ${VAR} or ${VAR:?why}.
var interpolated = regexp.MustCompile(`\$\{[^}]*\}`)

// pinned reports whether an image reference names its digest
// (IMAGE:TAG@sha256:64 hex digits).
func pinned(image string) bool {
	_, digest, ok := strings.Cut(image, "@sha256:")
	return ok && len(digest) == 64 && strings.Trim(digest, "0123456789abcdef") == ""
}

func TestComposeFile(t *testing.T) {
	t.Parallel()
	known := knownSettings(t)
	path := filepath.Join(deployDir, "docker-compose.yml")
	docs := yamlDocuments(t, path)
	if len(docs) != 1 {
		t.Fatalf("%s has %d documents, want 1", path, len(docs))
	}
	var cf composeFile
	if err := decodeStrict(docs[0], &cf); err != nil {
		t.Fatalf("%s: %v", path, err)
	}

	redis, ok := cf.Services["redis"]
	if !ok {
		t.Fatal("no redis service")
	}
	if !strings.HasPrefix(redis.Image, "redis:7") || !pinned(redis.Image) {
		t.Errorf("redis image %q, want redis:7-... pinned by digest", redis.Image)
	}
	if i := slices.Index(redis.Command, "--requirepass"); i < 0 || i+1 >= len(redis.Command) || !strings.HasPrefix(redis.Command[i+1], "${"+envRedisPassword+":?") {
		t.Errorf("redis command %q does not require the password %s (--requirepass ${%s:?...})", redis.Command, envRedisPassword, envRedisPassword)
	}
	if !strings.HasPrefix(redis.Environment["REDISCLI_AUTH"], "${"+envRedisPassword) {
		t.Errorf("redis environment %v: the healthcheck's redis-cli has no REDISCLI_AUTH of %s", redis.Environment, envRedisPassword)
	}
	if i := slices.Index(redis.Command, "--appendonly"); i < 0 || i+1 >= len(redis.Command) || redis.Command[i+1] != "yes" {
		t.Errorf("redis command %q does not turn the append-only file on", redis.Command)
	}
	if i := slices.Index(redis.Command, "--maxmemory-policy"); i >= 0 && (i+1 >= len(redis.Command) || redis.Command[i+1] != "noeviction") {
		t.Errorf("redis command %q sets an eviction policy other than noeviction", redis.Command)
	}
	dataOnVolume := false
	for _, v := range redis.Volumes {
		if name, target, _ := strings.Cut(v, ":"); target == "/data" {
			_, dataOnVolume = cf.Volumes[name]
		}
	}
	if !dataOnVolume {
		t.Errorf("redis volumes %q: /data is not on a named volume", redis.Volumes)
	}
	if !slices.Contains(redis.Healthcheck.Test, "redis-cli") || !slices.Contains(redis.Healthcheck.Test, "ping") {
		t.Errorf("redis healthcheck %q does not run redis-cli ping", redis.Healthcheck.Test)
	}

	replicas := 0
	for name, svc := range cf.Services {
		if name == "redis" {
			continue
		}
		replicas += max(svc.Deploy.Replicas, 1)
		if svc.Build.Dockerfile == "" {
			t.Errorf("%s: not built from the Dockerfile", name)
		} else if _, err := os.Stat(filepath.Join(deployDir, svc.Build.Context, svc.Build.Dockerfile)); err != nil {
			t.Errorf("%s: build context %q and dockerfile %q do not lead to the Dockerfile: %v", name, svc.Build.Context, svc.Build.Dockerfile, err)
		}
		if svc.EnvFile != "../.env" {
			t.Errorf("%s: env_file %q, want ../.env (the .env at the repository root)", name, svc.EnvFile)
		}
		for k := range svc.Environment {
			if !known[k] {
				t.Errorf("%s: sets %s, which docsbot serve does not read", name, k)
			}
			if slices.Contains(secretSettings(), k) {
				t.Errorf("%s: sets the secret %s in the compose file; it belongs in .env", name, k)
			}
		}
		// Compose puts the password in; a URL with ${...} does not parse.
		u, err := url.Parse(interpolated.ReplaceAllString(svc.Environment[envRedisURL], "pw"))
		if err != nil || u.Scheme != "redis" || u.Hostname() != "redis" {
			t.Errorf("%s: %s %q does not point at the redis service", name, envRedisURL, svc.Environment[envRedisURL])
		}
		if !strings.Contains(svc.Environment[envRedisURL], ":${"+envRedisPassword+":?") {
			t.Errorf("%s: %s %q does not give Redis the password %s", name, envRedisURL, svc.Environment[envRedisURL], envRedisPassword)
		}
		if _, port, err := net.SplitHostPort(svc.Environment[envHTTPAddr]); err != nil || port != "8080" {
			t.Errorf("%s: %s %q, want :8080", name, envHTTPAddr, svc.Environment[envHTTPAddr])
		}
		if svc.DependsOn["redis"].Condition != "service_healthy" {
			t.Errorf("%s: does not wait for a healthy redis: %+v", name, svc.DependsOn)
		}
		if svc.Restart != "unless-stopped" {
			t.Errorf("%s: restart %q, want unless-stopped", name, svc.Restart)
		}
		if d, err := time.ParseDuration(svc.StopGracePeriod); err != nil || d < 30*time.Second {
			t.Errorf("%s: stop_grace_period %q, want 30s or more", name, svc.StopGracePeriod)
		}
	}
	if replicas != 2 {
		t.Errorf("%d bot replicas, want 2", replicas)
	}
}

// The parts of Kubernetes objects the manifests use.
type k8sMeta struct {
	Name        string            `yaml:"name"`
	Labels      map[string]string `yaml:"labels"`
	Annotations map[string]string `yaml:"annotations"`
}

type k8sHeader struct {
	APIVersion string `yaml:"apiVersion"`
	Kind       string `yaml:"kind"`
}

type labelSelector struct {
	MatchLabels map[string]string `yaml:"matchLabels"`
}

type k8sConfig struct { // ConfigMap and Secret
	k8sHeader  `yaml:",inline"`
	Metadata   k8sMeta           `yaml:"metadata"`
	Type       string            `yaml:"type"`
	Data       map[string]string `yaml:"data"`
	StringData map[string]string `yaml:"stringData"`
}

type k8sPDB struct {
	k8sHeader `yaml:",inline"`
	Metadata  k8sMeta `yaml:"metadata"`
	Spec      struct {
		MinAvailable int           `yaml:"minAvailable"`
		Selector     labelSelector `yaml:"selector"`
	} `yaml:"spec"`
}

type k8sNetworkPolicy struct {
	k8sHeader `yaml:",inline"`
	Metadata  k8sMeta `yaml:"metadata"`
	Spec      struct {
		PodSelector labelSelector `yaml:"podSelector"`
		PolicyTypes []string      `yaml:"policyTypes"`
		Ingress     []struct {
			From []struct {
				NamespaceSelector *labelSelector `yaml:"namespaceSelector"`
				PodSelector       *labelSelector `yaml:"podSelector"`
				IPBlock           *struct {
					CIDR string `yaml:"cidr"`
				} `yaml:"ipBlock"`
			} `yaml:"from"`
			Ports []struct {
				Port     any    `yaml:"port"`
				Protocol string `yaml:"protocol"`
			} `yaml:"ports"`
		} `yaml:"ingress"`
	} `yaml:"spec"`
}

type k8sDeployment struct {
	k8sHeader `yaml:",inline"`
	Metadata  k8sMeta `yaml:"metadata"`
	Spec      struct {
		Replicas int           `yaml:"replicas"`
		Selector labelSelector `yaml:"selector"`
		Strategy struct {
			Type          string `yaml:"type"`
			RollingUpdate struct {
				MaxSurge       int `yaml:"maxSurge"`
				MaxUnavailable int `yaml:"maxUnavailable"`
			} `yaml:"rollingUpdate"`
		} `yaml:"strategy"`
		Template struct {
			Metadata k8sMeta    `yaml:"metadata"`
			Spec     k8sPodSpec `yaml:"spec"`
		} `yaml:"template"`
	} `yaml:"spec"`
}

type k8sPodSpec struct {
	TerminationGracePeriodSeconds *int  `yaml:"terminationGracePeriodSeconds"`
	AutomountServiceAccountToken  *bool `yaml:"automountServiceAccountToken"`
	SecurityContext               struct {
		RunAsNonRoot   *bool  `yaml:"runAsNonRoot"`
		RunAsUser      *int64 `yaml:"runAsUser"`
		RunAsGroup     *int64 `yaml:"runAsGroup"`
		SeccompProfile struct {
			Type string `yaml:"type"`
		} `yaml:"seccompProfile"`
	} `yaml:"securityContext"`
	TopologySpreadConstraints []struct {
		MaxSkew           int           `yaml:"maxSkew"`
		TopologyKey       string        `yaml:"topologyKey"`
		WhenUnsatisfiable string        `yaml:"whenUnsatisfiable"`
		LabelSelector     labelSelector `yaml:"labelSelector"`
	} `yaml:"topologySpreadConstraints"`
	Containers []k8sContainer `yaml:"containers"`
}

type k8sKeyRef struct {
	Name string `yaml:"name"`
	Key  string `yaml:"key"`
}

type k8sContainer struct {
	Name  string   `yaml:"name"`
	Image string   `yaml:"image"`
	Args  []string `yaml:"args"`
	Ports []struct {
		Name          string `yaml:"name"`
		ContainerPort int    `yaml:"containerPort"`
	} `yaml:"ports"`
	Env []struct {
		Name      string `yaml:"name"`
		Value     string `yaml:"value"`
		ValueFrom *struct {
			SecretKeyRef    *k8sKeyRef `yaml:"secretKeyRef"`
			ConfigMapKeyRef *k8sKeyRef `yaml:"configMapKeyRef"`
		} `yaml:"valueFrom"`
	} `yaml:"env"`
	EnvFrom []struct {
		ConfigMapRef *k8sKeyRef `yaml:"configMapRef"`
		SecretRef    *k8sKeyRef `yaml:"secretRef"`
	} `yaml:"envFrom"`
	LivenessProbe  *k8sProbe `yaml:"livenessProbe"`
	ReadinessProbe *k8sProbe `yaml:"readinessProbe"`
	Resources      struct {
		Requests map[string]string `yaml:"requests"`
		Limits   map[string]string `yaml:"limits"`
	} `yaml:"resources"`
	SecurityContext struct {
		RunAsNonRoot             *bool `yaml:"runAsNonRoot"`
		ReadOnlyRootFilesystem   *bool `yaml:"readOnlyRootFilesystem"`
		AllowPrivilegeEscalation *bool `yaml:"allowPrivilegeEscalation"`
		Capabilities             struct {
			Drop []string `yaml:"drop"`
		} `yaml:"capabilities"`
	} `yaml:"securityContext"`
}

type k8sProbe struct {
	HTTPGet *struct {
		Path string `yaml:"path"`
		Port any    `yaml:"port"`
	} `yaml:"httpGet"`
	PeriodSeconds    int `yaml:"periodSeconds"`
	TimeoutSeconds   int `yaml:"timeoutSeconds"`
	FailureThreshold int `yaml:"failureThreshold"`
}

// port resolves a probe's port, a number or the name of a container port.
func (c k8sContainer) port(p any) int {
	switch v := p.(type) {
	case int:
		return v
	case string:
		for _, cp := range c.Ports {
			if cp.Name == v {
				return cp.ContainerPort
			}
		}
	}
	return 0
}

// k8sObjects are the objects of every manifest in deploy/kubernetes.
type k8sObjects struct {
	deployments []k8sDeployment
	configMaps  map[string]k8sConfig
	secrets     map[string]k8sConfig
	pdbs        []k8sPDB
	policies    []k8sNetworkPolicy
}

func readManifests(t *testing.T) k8sObjects {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(deployDir, "kubernetes", "*.yaml"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no manifests in %s/kubernetes (%v)", deployDir, err)
	}
	objs := k8sObjects{configMaps: map[string]k8sConfig{}, secrets: map[string]k8sConfig{}}
	for _, path := range paths {
		for i, doc := range yamlDocuments(t, path) {
			var h k8sHeader
			if err := yaml.Unmarshal(doc, &h); err != nil {
				t.Fatalf("%s document %d: %v", path, i+1, err)
			}
			where := path + " document " + strconv.Itoa(i+1) + " (" + h.Kind + ")"
			decode := func(v any) {
				if err := decodeStrict(doc, v); err != nil {
					t.Fatalf("%s: %v", where, err)
				}
			}
			switch h.APIVersion + " " + h.Kind {
			case "apps/v1 Deployment":
				var d k8sDeployment
				decode(&d)
				objs.deployments = append(objs.deployments, d)
			case "v1 ConfigMap":
				var c k8sConfig
				decode(&c)
				objs.configMaps[c.Metadata.Name] = c
			case "v1 Secret":
				var s k8sConfig
				decode(&s)
				objs.secrets[s.Metadata.Name] = s
			case "policy/v1 PodDisruptionBudget":
				var p k8sPDB
				decode(&p)
				objs.pdbs = append(objs.pdbs, p)
			case "networking.k8s.io/v1 NetworkPolicy":
				var p k8sNetworkPolicy
				decode(&p)
				objs.policies = append(objs.policies, p)
			default:
				t.Fatalf("%s: apiVersion %q kind %q is not one this test knows", where, h.APIVersion, h.Kind)
			}
		}
	}
	return objs
}

// installOnly are the secrets of install by link alone, which the example
// Secret names in comments: set, they must come from it too.
var installOnly = map[string]bool{config.EnvClientSecret: true, config.EnvSecretsKey: true}

func TestKubernetesManifests(t *testing.T) {
	t.Parallel()
	known := knownSettings(t)
	objs := readManifests(t)
	if len(objs.deployments) != 1 {
		t.Fatalf("%d Deployments, want 1", len(objs.deployments))
	}
	d := objs.deployments[0]
	spec, pod := d.Spec, d.Spec.Template.Spec
	labels := d.Spec.Template.Metadata.Labels

	if spec.Replicas != 2 {
		t.Errorf("replicas %d, want 2", spec.Replicas)
	}
	if len(spec.Selector.MatchLabels) == 0 || !selects(spec.Selector, labels) {
		t.Errorf("selector %v does not select the pod labels %v", spec.Selector.MatchLabels, labels)
	}
	for _, pdb := range objs.pdbs {
		if !selects(pdb.Spec.Selector, labels) || pdb.Spec.MinAvailable < 1 || pdb.Spec.MinAvailable >= spec.Replicas {
			t.Errorf("PodDisruptionBudget %s: selector %v, minAvailable %d", pdb.Metadata.Name, pdb.Spec.Selector.MatchLabels, pdb.Spec.MinAvailable)
		}
	}
	if g := pod.TerminationGracePeriodSeconds; g == nil || *g != 30 {
		t.Errorf("terminationGracePeriodSeconds %v, want 30", g)
	}
	if nr := pod.SecurityContext.RunAsNonRoot; nr == nil || !*nr {
		t.Error("the pod does not set runAsNonRoot: true")
	}
	if u := pod.SecurityContext.RunAsUser; u != nil && *u == 0 {
		t.Error("the pod runs as uid 0")
	}
	if len(pod.Containers) != 1 {
		t.Fatalf("%d containers, want 1", len(pod.Containers))
	}
	c := pod.Containers[0]

	// The ConfigMap's addresses: Slack's port (DOCSBOT_HTTP_ADDR) and the
	// ops port (DOCSBOT_OPS_ADDR), which must be apart and declared by the
	// container under the names the probes and the NetworkPolicy use.
	portOf := func(env string) int {
		for _, cm := range objs.configMaps {
			if v, ok := cm.Data[env]; ok {
				_, port, err := net.SplitHostPort(v)
				n, perr := strconv.Atoi(port)
				if err != nil || perr != nil {
					t.Fatalf("ConfigMap %s sets %s %q, not an address with a port", cm.Metadata.Name, env, v)
				}
				return n
			}
		}
		t.Fatalf("no ConfigMap sets %s", env)
		return 0
	}
	slackPort, opsPort := portOf(envHTTPAddr), portOf(envOpsAddr)
	if slackPort == opsPort {
		t.Fatalf("%s and %s share port %d: the ops endpoint must be apart from Slack's", envHTTPAddr, envOpsAddr, opsPort)
	}
	if c.port("slack") != slackPort || c.port("ops") != opsPort {
		t.Errorf("container ports slack %d and ops %d, want %d and %d (the ConfigMap's)", c.port("slack"), c.port("ops"), slackPort, opsPort)
	}

	probes := []struct {
		name  string
		probe *k8sProbe
		path  string
	}{{"liveness", c.LivenessProbe, "/healthz"}, {"readiness", c.ReadinessProbe, "/readyz"}}
	for _, p := range probes {
		if p.probe == nil || p.probe.HTTPGet == nil {
			t.Errorf("no %s probe with httpGet", p.name)
			continue
		}
		if p.probe.HTTPGet.Path != p.path || c.port(p.probe.HTTPGet.Port) != opsPort {
			t.Errorf("%s probe GET %s on port %v (%d), want %s on the ops port %d", p.name, p.probe.HTTPGet.Path, p.probe.HTTPGet.Port, c.port(p.probe.HTTPGet.Port), p.path, opsPort)
		}
	}
	ann := d.Spec.Template.Metadata.Annotations
	if ann["prometheus.io/scrape"] != "true" || ann["prometheus.io/port"] != strconv.Itoa(opsPort) || ann["prometheus.io/path"] != "/metrics" {
		t.Errorf("pod annotations %v do not ask Prometheus to scrape :%d/metrics", ann, opsPort)
	}
	checkNetworkPolicies(t, objs.policies, labels, c, slackPort, opsPort)
	if c.Resources.Requests["cpu"] == "" || c.Resources.Requests["memory"] == "" || c.Resources.Limits["memory"] == "" {
		t.Errorf("resources %+v: want cpu and memory requests and a memory limit", c.Resources)
	}
	sc := c.SecurityContext
	switch {
	case sc.ReadOnlyRootFilesystem == nil || !*sc.ReadOnlyRootFilesystem:
		t.Error("the container's root filesystem is writable")
	case sc.AllowPrivilegeEscalation == nil || *sc.AllowPrivilegeEscalation:
		t.Error("the container allows privilege escalation")
	case !slices.Contains(sc.Capabilities.Drop, "ALL"):
		t.Errorf("the container drops capabilities %q, want ALL", sc.Capabilities.Drop)
	case sc.RunAsNonRoot != nil && !*sc.RunAsNonRoot:
		t.Error("the container sets runAsNonRoot: false")
	}

	// Where each variable comes from: "secret", "configmap" or "value".
	from := map[string][]string{}
	for _, ef := range c.EnvFrom {
		switch {
		case ef.ConfigMapRef != nil:
			cm, ok := objs.configMaps[ef.ConfigMapRef.Name]
			if !ok {
				t.Errorf("envFrom names the ConfigMap %q, which no manifest defines", ef.ConfigMapRef.Name)
			}
			for k := range cm.Data {
				from[k] = append(from[k], "configmap")
			}
		case ef.SecretRef != nil:
			s, ok := objs.secrets[ef.SecretRef.Name]
			if !ok {
				t.Errorf("envFrom names the Secret %q, which no manifest defines", ef.SecretRef.Name)
			}
			for k := range s.StringData {
				from[k] = append(from[k], "secret")
			}
			for k := range s.Data {
				from[k] = append(from[k], "secret")
			}
		}
	}
	for _, e := range c.Env {
		switch {
		case e.ValueFrom != nil && e.ValueFrom.SecretKeyRef != nil:
			from[e.Name] = append(from[e.Name], "secret")
		case e.ValueFrom != nil && e.ValueFrom.ConfigMapKeyRef != nil:
			from[e.Name] = append(from[e.Name], "configmap")
		default:
			from[e.Name] = append(from[e.Name], "value")
		}
	}
	for name := range from {
		if !known[name] && !goRuntimeEnv(name) {
			t.Errorf("the pod gets %s, which docsbot serve does not read", name)
		}
	}
	for _, name := range secretSettings() {
		if len(from[name]) == 0 && installOnly[name] {
			continue // install by link's, commented out in the example
		}
		if !slices.Equal(from[name], []string{"secret"}) {
			t.Errorf("%s comes from %q, want only the Secret", name, from[name])
		}
	}
	if len(from[envProject]) == 0 {
		t.Errorf("nothing sets %s", envProject)
	}
	for _, s := range objs.secrets {
		for k, v := range s.StringData {
			if !strings.Contains(v, "REPLACE") {
				t.Errorf("Secret %s: %s is not a placeholder (it must contain REPLACE)", s.Metadata.Name, k)
			}
		}
		if len(s.Data) > 0 {
			t.Errorf("Secret %s has base64 data; an example holds only stringData placeholders", s.Metadata.Name)
		}
	}
}

// checkNetworkPolicies checks the example NetworkPolicy: it applies to the
// pods, and lets the Slack port be reached from one namespace (the ingress)
// and the ops port from another (monitoring) alone, never from everywhere.
func checkNetworkPolicies(t *testing.T, policies []k8sNetworkPolicy, labels map[string]string, c k8sContainer, slackPort, opsPort int) {
	t.Helper()
	if len(policies) != 1 {
		t.Fatalf("%d NetworkPolicies, want 1", len(policies))
	}
	p := policies[0]
	if len(p.Spec.PodSelector.MatchLabels) == 0 || !selects(p.Spec.PodSelector, labels) || !slices.Contains(p.Spec.PolicyTypes, "Ingress") {
		t.Errorf("NetworkPolicy %s: podSelector %v, policyTypes %v: want the pods' labels and Ingress", p.Metadata.Name, p.Spec.PodSelector.MatchLabels, p.Spec.PolicyTypes)
	}
	// The namespaces each port is opened to.
	from := map[int][]string{}
	for i, rule := range p.Spec.Ingress {
		if len(rule.From) == 0 || len(rule.Ports) == 0 {
			t.Errorf("NetworkPolicy rule %d opens to any source or any port", i+1)
			continue
		}
		for _, port := range rule.Ports {
			n := c.port(port.Port)
			if n == 0 {
				t.Errorf("NetworkPolicy rule %d names port %v, which the container does not declare", i+1, port.Port)
			}
			for _, f := range rule.From {
				if f.NamespaceSelector == nil || f.PodSelector != nil || f.IPBlock != nil {
					t.Errorf("NetworkPolicy rule %d: a source other than a namespace", i+1)
					continue
				}
				from[n] = append(from[n], f.NamespaceSelector.MatchLabels["kubernetes.io/metadata.name"])
			}
		}
	}
	if !slices.Equal(from[opsPort], []string{"monitoring"}) {
		t.Errorf("the ops port %d is open to namespaces %q, want monitoring alone", opsPort, from[opsPort])
	}
	if len(from[slackPort]) != 1 || slices.Contains(from[slackPort], "monitoring") || from[slackPort][0] == "" {
		t.Errorf("the Slack port %d is open to namespaces %q, want the ingress controller's alone", slackPort, from[slackPort])
	}
	if len(from) != 2 {
		t.Errorf("the NetworkPolicy opens ports %v, want the Slack and ops ports alone", slices.Sorted(maps.Keys(from)))
	}
}

// selects reports whether the selector matches the labels.
func selects(sel labelSelector, labels map[string]string) bool {
	for k, v := range sel.MatchLabels {
		if labels[k] != v {
			return false
		}
	}
	return true
}

// dockerInstr is one Dockerfile instruction.
type dockerInstr struct {
	cmd  string // upper case: FROM, RUN, ...
	args string
}

// readDockerfile reads the instructions of a Dockerfile, with continuation
// lines joined and comments dropped.
func readDockerfile(t *testing.T, path string) []dockerInstr {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []dockerInstr
	var cur strings.Builder
	for line := range strings.Lines(string(raw)) {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "#") || (line == "" && cur.Len() == 0) {
			continue
		}
		if body, ok := strings.CutSuffix(line, "\\"); ok {
			cur.WriteString(body + " ")
			continue
		}
		cur.WriteString(line)
		cmd, args, _ := strings.Cut(strings.TrimSpace(cur.String()), " ")
		out = append(out, dockerInstr{cmd: strings.ToUpper(cmd), args: strings.TrimSpace(args)})
		cur.Reset()
	}
	return out
}

// shellWords splits a shell command line into words, honouring single and
// double quotes (enough for build lines; no expansion).
func shellWords(s string) []string {
	var words []string
	var w strings.Builder
	inWord := false
	var quote rune
	for _, r := range s {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			w.WriteRune(r)
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == ' ' || r == '\t':
			if inWord {
				words = append(words, w.String())
				w.Reset()
				inWord = false
			}
		default:
			w.WriteRune(r)
			inWord = true
		}
	}
	if inWord {
		words = append(words, w.String())
	}
	return words
}

// goBuild is a `go build` command line taken apart.
type goBuild struct {
	env    map[string]string // assignments before the command
	flags  []string          // build flags, without -o and its value
	output string
	pkg    string
}

// parseGoBuild finds `go build` (or `$(GO) build`) in a shell line.
func parseGoBuild(line string) (goBuild, bool) {
	words := shellWords(line)
	b := goBuild{env: map[string]string{}}
	i := 0
	for ; i < len(words); i++ {
		w := words[i]
		if (w == "go" || w == "$(GO)") && i+1 < len(words) && words[i+1] == "build" {
			break
		}
		if name, value, ok := strings.Cut(w, "="); ok && !strings.HasPrefix(w, "-") && name == strings.ToUpper(name) {
			b.env[name] = value
		} else {
			clear(b.env) // an assignment belongs to the command that follows it
		}
	}
	if i >= len(words) {
		return goBuild{}, false
	}
	args := words[i+2:]
	for j := 0; j < len(args); j++ {
		switch {
		case args[j] == "-o" && j+1 < len(args):
			b.output = args[j+1]
			j++
		case strings.HasPrefix(args[j], "-"):
			b.flags = append(b.flags, args[j])
		default:
			b.pkg = args[j]
		}
	}
	return b, true
}

// dockerBuild returns the go build of the Dockerfile's builder stage.
func dockerBuild(t *testing.T, instrs []dockerInstr) goBuild {
	t.Helper()
	for _, in := range instrs {
		if in.cmd != "RUN" {
			continue
		}
		line := in.args
		for strings.HasPrefix(line, "--") { // RUN options such as --mount
			_, line, _ = strings.Cut(line, " ")
		}
		if b, ok := parseGoBuild(line); ok {
			return b
		}
	}
	t.Fatal("the Dockerfile runs no go build")
	return goBuild{}
}

// makeBuild returns the go build of the Makefile's build target.
func makeBuild(t *testing.T) goBuild {
	t.Helper()
	raw, err := os.ReadFile("../../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	inBuild := false
	for line := range strings.Lines(string(raw)) {
		switch {
		case strings.HasPrefix(line, "build:"):
			inBuild = true
		case inBuild && strings.HasPrefix(line, "\t"):
			if b, ok := parseGoBuild(strings.TrimSpace(line)); ok {
				return b
			}
		case inBuild:
			inBuild = false
		}
	}
	t.Fatal("the Makefile's build target runs no go build")
	return goBuild{}
}

// buildSettings are the settings of a build that decide what binary it
// makes, whatever the platform: GOOS and GOARCH are left out.
func (b goBuild) buildSettings() map[string]string {
	s := map[string]string{}
	for k, v := range b.env {
		if k != "GOOS" && k != "GOARCH" {
			s["env "+k] = v
		}
	}
	for _, f := range b.flags {
		s["flag "+f] = ""
	}
	s["package"] = b.pkg
	return s
}

func TestDockerfile(t *testing.T) {
	t.Parallel()
	instrs := readDockerfile(t, filepath.Join(deployDir, "Dockerfile"))

	docker, mk := dockerBuild(t, instrs), makeBuild(t)
	ds, ms := docker.buildSettings(), mk.buildSettings()
	for k, v := range ms {
		if dv, ok := ds[k]; !ok {
			t.Errorf("make build has %s, the Dockerfile's go build does not", strings.TrimSuffix(k+"="+v, "="))
		} else if dv != v {
			t.Errorf("make build has %s=%s, the Dockerfile's go build %s=%s", k, v, k, dv)
		}
	}
	for k, v := range ds {
		if _, ok := ms[k]; !ok {
			t.Errorf("the Dockerfile's go build has %s, make build does not", strings.TrimSuffix(k+"="+v, "="))
		}
	}
	if docker.env["CGO_ENABLED"] != "0" {
		t.Errorf("the Dockerfile builds with CGO_ENABLED=%q, want 0 for a static binary", docker.env["CGO_ENABLED"])
	}

	var froms []int
	for i, in := range instrs {
		if in.cmd == "FROM" {
			froms = append(froms, i)
		}
	}
	if len(froms) < 2 {
		t.Fatalf("%d stages, want a builder and a final stage", len(froms))
	}
	image := func(i int) string {
		w := shellWords(instrs[i].args)
		for len(w) > 0 && strings.HasPrefix(w[0], "--") {
			w = w[1:]
		}
		return w[0]
	}
	goMod, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	for _, i := range froms {
		if !pinned(image(i)) {
			t.Errorf("base image %s is not pinned by digest (IMAGE:TAG@sha256:…)", image(i))
		}
	}
	builder, _, _ := strings.Cut(image(froms[0]), "@")
	goVersion, _ := strings.CutPrefix(builder, "golang:")
	if !strings.Contains(string(goMod), "\ngo "+goVersion) {
		t.Errorf("builder image %s does not match the go line of go.mod", builder)
	}

	final := instrs[froms[len(froms)-1]:]
	base, _, _ := strings.Cut(image(froms[len(froms)-1]), "@")
	user := ""
	if strings.HasSuffix(base, ":nonroot") {
		user = "nonroot"
	}
	got := map[string]string{}
	for _, in := range final {
		switch in.cmd {
		case "USER":
			user = in.args
		case "ENTRYPOINT", "CMD", "EXPOSE":
			got[in.cmd] = in.args
		case "RUN":
			t.Errorf("the final stage runs %q: it has no shell", in.args)
		}
	}
	if name, _, _ := strings.Cut(user, ":"); name == "" || name == "root" || name == "0" {
		t.Errorf("the final stage (%s) runs as %q, want a non-root user", base, user)
	}
	want := map[string]string{"ENTRYPOINT": `["/docsbot"]`, "CMD": `["serve"]`, "EXPOSE": "8080"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("final stage %s %q, want %q", k, got[k], v)
		}
	}
	if copyTo := "/docsbot"; !slices.ContainsFunc(final, func(in dockerInstr) bool {
		return in.cmd == "COPY" && strings.HasSuffix(in.args, docker.output+" "+copyTo)
	}) {
		t.Errorf("the final stage does not copy %s (the build output) to %s", docker.output, copyTo)
	}
	for _, in := range instrs {
		for _, name := range secretSettings() {
			if (in.cmd == "ENV" || in.cmd == "ARG") && strings.Contains(in.args, name) {
				t.Errorf("the Dockerfile bakes %s into the image: %s %s", name, in.cmd, in.args)
			}
		}
	}
	ignore, err := os.ReadFile(filepath.Join(deployDir, "Dockerfile.dockerignore"))
	if err != nil || !slices.Contains(strings.Fields(string(ignore)), ".env") {
		t.Errorf("deploy/Dockerfile.dockerignore does not keep .env out of the build context (%v)", err)
	}
}

// TestDockerBuildIsStatic runs the Dockerfile's go build (its environment,
// flags and package) on this machine and checks the binary is static and
// stripped, as the distroless image needs: what CI can check without a
// Docker engine.
func TestDockerBuildIsStatic(t *testing.T) {
	t.Parallel()
	b := dockerBuild(t, readDockerfile(t, filepath.Join(deployDir, "Dockerfile")))
	out := filepath.Join(t.TempDir(), "docsbot")
	cmd := exec.Command("go", append(append([]string{"build"}, b.flags...), "-o", out, b.pkg)...)
	cmd.Dir = "../.."
	cmd.Env = os.Environ()
	for k, v := range b.buildSettings() {
		if name, ok := strings.CutPrefix(k, "env "); ok {
			cmd.Env = append(cmd.Env, name+"="+v)
		}
	}
	// One go build at a time: the tests' binary (testbin.Build) compiles
	// everything but main as this one does, so whichever comes second only
	// compiles main and links.
	if msg, err := testbin.CombinedOutput(t.Context(), cmd); err != nil {
		t.Fatalf("%s: %v\n%s", cmd, err, msg)
	}

	f, err := elf.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP || p.Type == elf.PT_DYNAMIC {
			t.Errorf("the binary has a %s program header: it is dynamically linked", p.Type)
		}
	}
	if libs, err := f.ImportedLibraries(); err != nil || len(libs) > 0 {
		t.Errorf("the binary needs shared libraries %q (%v)", libs, err)
	}
	if f.Section(".symtab") != nil {
		t.Error("the binary has a symbol table: -ldflags=-s did not apply")
	}
	for _, s := range f.Sections {
		if strings.HasPrefix(s.Name, ".debug_") || strings.HasPrefix(s.Name, ".zdebug_") {
			t.Errorf("the binary has DWARF section %s: -ldflags=-w did not apply", s.Name)
			break
		}
	}

	info, err := buildinfo.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	settings := map[string]string{}
	for _, s := range info.Settings {
		settings[s.Key] = s.Value
	}
	// The go command does not record -ldflags with -trimpath: the sections
	// above show that it applied.
	// -tags nosandbox keeps the sandbox's fakes and embedded store out of
	// the image.
	for k, v := range map[string]string{"CGO_ENABLED": "0", "-trimpath": "true", "-tags": "nosandbox"} {
		if settings[k] != v {
			t.Errorf("build setting %s = %q, want %q", k, settings[k], v)
		}
	}
}
