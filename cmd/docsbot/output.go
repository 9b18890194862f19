package main

import (
	"fmt"
	"strings"
)

// formatFlag is a --format flag that accepts one of a fixed set of values.
type formatFlag struct {
	value   string
	allowed []string
}

func newFormat(allowed ...string) *formatFlag {
	return &formatFlag{value: allowed[0], allowed: allowed}
}

func (f *formatFlag) String() string {
	if f == nil {
		return ""
	}
	return f.value
}

func (f *formatFlag) Set(s string) error {
	for _, a := range f.allowed {
		if s == a {
			f.value = s
			return nil
		}
	}
	return fmt.Errorf("must be one of %s", strings.Join(f.allowed, ", "))
}

func (f *formatFlag) usage() string {
	return "output `format`: " + strings.Join(f.allowed, ", ")
}
