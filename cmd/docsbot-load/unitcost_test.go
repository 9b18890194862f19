package main

import (
	"maps"
	"testing"
)

// TestNetOfIdle checks a unit's cost less the idle loops': the idle rate
// over the window, shared by the units, taken off figure by figure, and no
// figure below 0.
func TestNetOfIdle(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		perUnit   unitCost
		idlePerS  unitCost
		window    float64 // seconds
		units     int
		want      float64
		wantNames map[string]float64
	}{
		{"idle taken off by name", unitCost{Redis: 12, RedisByName: map[string]float64{"evalsha": 6, "zrange": 6}},
			unitCost{Redis: 2, RedisByName: map[string]float64{"zrange": 2}}, 10, 5, 8, map[string]float64{"evalsha": 6, "zrange": 2}},
		{"more idle than counted", unitCost{Redis: 1, RedisByName: map[string]float64{"zrange": 1}},
			unitCost{Redis: 3, RedisByName: map[string]float64{"zrange": 3}}, 10, 10, 0, map[string]float64{}},
		{"no idle", unitCost{Redis: 4, RedisByName: map[string]float64{"xadd": 4}}, unitCost{}, 10, 2, 4, map[string]float64{"xadd": 4}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			net := tc.perUnit.less(tc.idlePerS.scaled(tc.window / float64(tc.units)))
			if net.Redis != tc.want || !maps.Equal(net.RedisByName, tc.wantNames) {
				t.Errorf("net %v %v, want %v %v", net.Redis, net.RedisByName, tc.want, tc.wantNames)
			}
		})
	}
}
