package agent

import (
	"testing"
	"time"
)

func TestPollDelayBacksOffToTheCap(t *testing.T) {
	t.Parallel()
	a := &agent{cfg: Config{PollInterval: 10 * time.Second, PollMaxInterval: time.Minute}.withDefaults()}
	for n := 1; n <= 12; n++ {
		d := a.pollDelay(n)
		nominal := min(float64(10*time.Second)*pow15(n), float64(time.Minute))
		if float64(d) < 0.9*nominal || float64(d) > 1.1*nominal {
			t.Errorf("pollDelay(%d) = %v, want within 10%% of %v", n, d, time.Duration(nominal))
		}
	}
}

func pow15(n int) float64 {
	f := 1.0
	for range n {
		f *= 1.5
	}
	return f
}
