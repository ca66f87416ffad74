package json

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// Strings by shape and length, for the fixed per-call costs that long runs
// hide: a kernel's call, a bytes.IndexByte set-up, a cache slot. Each
// document is an array of distinct strings of one kind and one length n
// (the bytes between the quotes, as written), about 64 KB in all:
//
//	plain   letters
//	esc10   letters with an escape (\n or \") every 10 bytes
//	uesc    \uXXXX escapes (Cyrillic, an emoji's surrogate pair now and then)
//	url     URL-like: scheme, host, path segments, a query
//
// decoded into []string (typed) and into any, each call from a fresh
// state (forgetPooled: no string comes from the cache a repeated input
// would fill), and checked by Valid. forgetPooled runs inside the timed
// loop: it is a clear of about 60 KB, a microsecond or two, where
// b.StopTimer's ReadMemStats stops the world on every call and its wait
// moved the figures by more than the code did. This file uses nothing newer than the
// API of 113b0cc, so it runs there unchanged for a before/after:
//
//	go test -run='^$' -bench=StringShapes -benchmem -count=10
var stringShapeLengths = []int{8, 16, 32, 40, 64, 100, 256, 1024, 4096}

// stringShapeBody returns the i-th distinct string body of the kind, n
// bytes long as written in JSON.
func stringShapeBody(kind string, n, i int) string {
	r := rand.New(rand.NewPCG(uint64(n), uint64(i)))
	letter := func() byte { return "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"[r.IntN(62)] }
	var b strings.Builder
	switch kind {
	case "plain":
		for b.Len() < n {
			b.WriteByte(letter())
		}
	case "quoted":
		// a run between two escapes, as a quotation is: the escapes are
		// few, and the run between them as long as the string
		b.WriteString(`\"`)
		for b.Len() < n-2 {
			b.WriteByte(letter())
		}
		b.WriteString(`\"`)
	case "esc10":
		for b.Len() < n {
			if b.Len()%10 == 8 && b.Len()+2 <= n {
				b.WriteString([]string{`\n`, `\"`}[r.IntN(2)])
				continue
			}
			b.WriteByte(letter())
		}
	case "uesc":
		// text in another script written as \uXXXX (Cyrillic, and now and
		// then an emoji as a surrogate pair), as some exporters write
		// every non-ASCII character; letters where an escape would not fit
		for b.Len() < n {
			switch {
			case r.IntN(10) == 0 && b.Len()+12 <= n:
				fmt.Fprintf(&b, `\u%04x\u%04x`, 0xd83d, 0xde00+r.IntN(64))
			case b.Len()+6 <= n:
				fmt.Fprintf(&b, `\u%04x`, 0x410+r.IntN(64))
			default:
				b.WriteByte(letter())
			}
		}
	case "utf8":
		// CJK (7 in 10), emoji (1 in 10), ASCII letters (2 in 10);
		// letters where a character would overrun n
		for b.Len() < n {
			c := rune(0x4e00 + r.IntN(0x9fa5-0x4e00+1))
			switch k := r.IntN(10); {
			case k == 7:
				c = rune(0x1f300 + r.IntN(0x350))
			case k > 7:
				c = rune(letter())
			}
			if b.Len()+utf8.RuneLen(c) > n {
				c = rune(letter())
			}
			b.WriteRune(c)
		}
	case "url":
		// short ones a path, longer ones from a scheme and a host that
		// differ from string to string
		if n >= 24 {
			b.WriteString("https://")
			for range 3 + r.IntN(6) {
				b.WriteByte(letter())
			}
			b.WriteString(".example.com")
		}
		b.WriteByte('/')
		for b.Len() < n {
			switch r.IntN(16) {
			case 0:
				b.WriteByte('/')
			case 1:
				b.WriteByte('-')
			case 2:
				b.WriteString("?page=")
			default:
				b.WriteByte(letter())
			}
		}
	default:
		panic("unknown kind " + kind)
	}
	return b.String()[:n] // (an esc10 escape is never cut: it fits whole or is not written)
}

// stringShapeDoc is the JSON array of the kind's strings of length n.
func stringShapeDoc(kind string, n int) []byte {
	count := max(8, 64<<10/(n+3))
	var b strings.Builder
	b.WriteByte('[')
	for i := range count {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('"')
		b.WriteString(stringShapeBody(kind, n, i))
		b.WriteByte('"')
	}
	b.WriteByte(']')
	return []byte(b.String())
}

func BenchmarkStringShapes(b *testing.B) {
	for _, kind := range []string{"plain", "esc10", "quoted", "uesc", "url", "utf8"} {
		for _, n := range stringShapeLengths {
			data := stringShapeDoc(kind, n)
			if !Valid(data) {
				b.Fatalf("%s n=%d: the generated document is not valid JSON", kind, n)
			}
			runDocOps(b, fmt.Sprintf("kind=%s/n=%d/", kind, n), data, []docOp{
				{"typed", true, func(d []byte) error { var v []string; return Unmarshal(d, &v) }},
				{"any", true, func(d []byte) error { var v any; return Unmarshal(d, &v) }},
				{"valid", false, validDoc},
			})
		}
	}
}

// docOp is one timed operation on a document; fresh ones start each call
// from a fresh state (forgetPooled, inside the timed loop).
type docOp struct {
	name  string
	fresh bool
	fn    func([]byte) error
}

// runDocOps runs each op on data as the sub-benchmark prefix+"op="+name.
func runDocOps(b *testing.B, prefix string, data []byte, ops []docOp) {
	for _, op := range ops {
		b.Run(prefix+"op="+op.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if op.fresh {
					forgetPooled()
				}
				if err := op.fn(data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func validDoc(d []byte) error {
	if !Valid(d) {
		return fmt.Errorf("invalid")
	}
	return nil
}

// webhookLikeDoc is an array of objects shaped like GitHub webhook
// payloads: 20 to 40 URL strings of 40 to 100 bytes each, beside an id, a
// name and a flag (the document issue 34 measured the kernel's per-call
// cost on).
func webhookLikeDoc() []byte {
	r := rand.New(rand.NewPCG(34, 34))
	names := []string{"url", "html_url", "repository_url", "labels_url", "comments_url", "events_url",
		"followers_url", "following_url", "gists_url", "starred_url", "subscriptions_url",
		"organizations_url", "repos_url", "received_events_url", "avatar_url", "git_url",
		"ssh_url", "clone_url", "svn_url", "hooks_url", "issue_events_url", "assignees_url",
		"branches_url", "tags_url", "blobs_url", "git_tags_url", "git_refs_url", "trees_url",
		"statuses_url", "languages_url", "stargazers_url", "contributors_url", "subscribers_url",
		"commits_url", "git_commits_url", "archive_url", "downloads_url", "pulls_url",
		"milestones_url", "notifications_url"}
	var b strings.Builder
	b.WriteByte('[')
	for i := range 1200 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":%d,"name":"repo-%d","private":%v`, 100000+i*7919, i, i%3 == 0)
		for _, k := range names[:20+r.IntN(21)] {
			n := 40 + r.IntN(61)
			fmt.Fprintf(&b, `,"%s":"%s"`, k, stringShapeBody("url", n, i*64+len(k)))
		}
		b.WriteByte('}')
	}
	b.WriteByte(']')
	return []byte(b.String())
}

// webhookRecord is the Go type a user writes for webhookLikeDoc's records.
type webhookRecord struct {
	ID                int64  `json:"id"`
	Name              string `json:"name"`
	Private           bool   `json:"private"`
	URL               string `json:"url"`
	HTMLURL           string `json:"html_url"`
	RepositoryURL     string `json:"repository_url"`
	LabelsURL         string `json:"labels_url"`
	CommentsURL       string `json:"comments_url"`
	EventsURL         string `json:"events_url"`
	FollowersURL      string `json:"followers_url"`
	FollowingURL      string `json:"following_url"`
	GistsURL          string `json:"gists_url"`
	StarredURL        string `json:"starred_url"`
	SubscriptionsURL  string `json:"subscriptions_url"`
	OrganizationsURL  string `json:"organizations_url"`
	ReposURL          string `json:"repos_url"`
	ReceivedEventsURL string `json:"received_events_url"`
	AvatarURL         string `json:"avatar_url"`
	GitURL            string `json:"git_url"`
	SSHURL            string `json:"ssh_url"`
	CloneURL          string `json:"clone_url"`
	SVNURL            string `json:"svn_url"`
	HooksURL          string `json:"hooks_url"`
	IssueEventsURL    string `json:"issue_events_url"`
	AssigneesURL      string `json:"assignees_url"`
	BranchesURL       string `json:"branches_url"`
	TagsURL           string `json:"tags_url"`
	BlobsURL          string `json:"blobs_url"`
	GitTagsURL        string `json:"git_tags_url"`
	GitRefsURL        string `json:"git_refs_url"`
	TreesURL          string `json:"trees_url"`
	StatusesURL       string `json:"statuses_url"`
	LanguagesURL      string `json:"languages_url"`
	StargazersURL     string `json:"stargazers_url"`
	ContributorsURL   string `json:"contributors_url"`
	SubscribersURL    string `json:"subscribers_url"`
	CommitsURL        string `json:"commits_url"`
	GitCommitsURL     string `json:"git_commits_url"`
	ArchiveURL        string `json:"archive_url"`
	DownloadsURL      string `json:"downloads_url"`
	PullsURL          string `json:"pulls_url"`
	MilestonesURL     string `json:"milestones_url"`
	NotificationsURL  string `json:"notifications_url"`
}

// BenchmarkWebhookLike decodes the webhook-like document into any and into
// []webhookRecord, from a fresh state each call, and checks it with Valid.
func BenchmarkWebhookLike(b *testing.B) {
	runDocOps(b, "", webhookLikeDoc(), []docOp{
		{"any", true, func(d []byte) error { var v any; return Unmarshal(d, &v) }},
		{"typed", true, func(d []byte) error { var v []webhookRecord; return Unmarshal(d, &v) }},
		{"valid", true, validDoc},
	})
}
