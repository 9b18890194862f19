package docsapitest

// Tags keep the hash streams of different quantities apart.
const (
	tagSite uint64 = iota + 1
	tagPerturb
	tagAIRatio
	tagShift
	tagOverlap
	tagHuman
	tagAI
	tagTotals
	tagDeploy
	tagSearch
	tagFeedback
	tagConversation
	tagViews
)

// mix is the splitmix64 finalizer: a fast, well-spread 64-bit permutation.
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

// hash combines values into one well-spread 64-bit value.
func hash(vals ...uint64) uint64 {
	h := uint64(0x9e3779b97f4a7c15)
	for _, v := range vals {
		h = mix(h ^ (v + 0x9e3779b97f4a7c15))
	}
	return h
}

// unit maps a hash to [0, 1).
func unit(h uint64) float64 {
	return float64(h>>11) / (1 << 53)
}
