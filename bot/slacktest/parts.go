package slacktest

// workspaceState is what people and the bot see in the fake Slack: channels and
// their messages, people, ephemeral messages, response URLs, triggers,
// views, thread statuses, files and user groups. It is held under Server.mu.
type workspaceState struct {
	channels     map[string]*channelState
	channelOrder []string
	users        map[string]string
	userOrder    []string
	// standing is what users.info says of people who are not plain members
	// of the workspace (AddGuest, AddExternalUser), by user id.
	standing   map[string]Standing
	ephemerals []*msg
	// lastTS and seq make message timestamps unique and increasing.
	lastTS int64
	seq    uint64
	// responses are the slash commands' response URLs by id, posts what
	// was posted to them.
	responses map[string]*responseURL
	posts     []ResponsePost
	// triggers are the trigger ids issued, by id.
	triggers map[string]*trigger
	// views are the open modals and published Home tabs, by view id;
	// homeViews the Home tab view id by user.
	views     map[string]*view
	homeViews map[string]string
	// statuses are the assistant thread statuses by "channel/thread_ts".
	statuses map[string]string
	// uploads are the files by id, uploaded or only announced.
	uploads     map[string]*upload
	uploadOrder []string
	// shared are the files people attached to messages, by id
	// (UserMessage.Attach), and their ids in the order attached.
	shared      map[string]*sharedFile
	sharedOrder []string
	// groups are the user groups' members by id (AddUserGroup), and
	// groupHandles their handles (SetUserGroupHandle).
	groups       map[string][]string
	groupHandles map[string]string
	// refusedBlocks are the block types the workspace refuses (RefuseBlockType).
	refusedBlocks map[string]bool
	// The AI surface, by "channel/thread_ts" ("channel/" for a channel's
	// own): the suggested prompts and thread titles the app set, the
	// assistant pane's threads, the agent sessions; the people's app
	// contexts by user id; the link_shared events by unfurl id.
	prompts          map[string]SuggestedPrompts
	titles           map[string]string
	assistantThreads map[string]*assistantThread
	sessions         map[string]*agentSession
	appContexts      map[string]map[string]any
	shares           map[string]*linkShare
}

// deliveryState is how the fake Slack reaches the app: Socket Mode tickets and
// connections, the envelopes sent and waiting, their acks and redeliveries,
// and the requests of HTTP delivery. It is held under Server.mu.
type deliveryState struct {
	tickets    map[string]struct{}
	conns      []*wsConn
	nextConnID int
	// rr picks the connection of the next envelope, round robin.
	rr       int
	connects int
	envs     map[string]*envelope
	byEvent  map[string]*envelope // events_api envelopes by event_id, as long as envs keeps them
	envOrder []string             // ids of envs, oldest first
	envKept  int                  // len(envOrder) after envelopes were last forgotten
	queue    []*envelope
	acks     []Ack
	// redelivered counts events sent again after no ack came.
	redelivered int
	// httpSent records the requests of HTTP delivery (WithHTTPDelivery).
	httpSent []HTTPDelivery
}
