package json

import "github.com/jsonpipe/json/internal/corpus"

// The corpus types live in internal/corpus, shared with the other module.
type (
	twitterDoc      = corpus.TwitterDoc
	twitterStatus   = corpus.TwitterStatus
	twitterUser     = corpus.TwitterUser
	twitterURL      = corpus.TwitterURL
	twitterEntities = corpus.TwitterEntities
	twitterSize     = corpus.TwitterSize
	citmDoc         = corpus.CitmDoc
	citmEvent       = corpus.CitmEvent
	canadaDoc       = corpus.CanadaDoc
)

var typedTarget = corpus.TypedTarget
