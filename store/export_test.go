package store

import "github.com/redis/go-redis/v9"

// New returns a Store on a client the tests made, for a topology of their
// choice; the tests keep the client (Close does not close it). docsbot
// itself opens its Store with Open.
func New(rdb redis.UniversalClient, opts ...Option) *Store { return newStore(rdb, opts...) }
