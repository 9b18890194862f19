package store_test

import (
	"errors"
	"testing"
	"time"

	"github.com/docsbot/docsbot/store"
)

func TestReports(t *testing.T) {
	t.Parallel()
	an := newStore(t).Analytics()
	ctx := t.Context()
	if _, err := an.LoadReport(ctx, "health:docs:30d"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("nothing cached: %v", err)
	}
	if err := an.SaveReport(ctx, "health:docs:30d", []byte(`{"x":1}`), time.Minute); err != nil {
		t.Fatal(err)
	}
	r, err := an.LoadReport(ctx, "health:docs:30d")
	if err != nil || string(r.Data) != `{"x":1}` || r.Age < 0 || r.Age > time.Minute {
		t.Fatalf("read back %+v, %v", r, err)
	}
	if err := an.SaveReport(ctx, "", nil, time.Minute); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("no key: %v", err)
	}
}
