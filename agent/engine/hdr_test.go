// The histogram against the layout app/common/hdr.ts uses: bucket edges, percentiles as
// hdr-histogram-js reads them, exact merging, and the compressed V2 encoding decoded back to the
// same counts (hdr-interop.test.ts checks the app's own decoder reads it too).

package main

import (
	"bytes"
	"compress/zlib"
	"encoding/base64"
	"encoding/binary"
	"io"
	"math"
	"testing"
)

// decodeCounts reads an encoded histogram back into counts by index (test-only decoder).
func decodeCounts(t *testing.T, encoded string) (map[int]int64, int64) {
	t.Helper()
	raw, err := base64.StdEncoding.DecodeString(encoded)
	if err != nil {
		t.Fatal(err)
	}
	if binary.BigEndian.Uint32(raw) != 0x1c849314 || int(binary.BigEndian.Uint32(raw[4:])) != len(raw)-8 {
		t.Fatalf("bad compressed header % x", raw[:8])
	}
	reader, err := zlib.NewReader(bytes.NewReader(raw[8:]))
	if err != nil {
		t.Fatal(err)
	}
	plain, err := io.ReadAll(reader)
	if err != nil {
		t.Fatal(err)
	}
	if binary.BigEndian.Uint32(plain) != 0x1c849313 || binary.BigEndian.Uint32(plain[12:]) != 3 ||
		binary.BigEndian.Uint64(plain[16:]) != 1 || binary.BigEndian.Uint64(plain[24:]) != 60_000_000 ||
		math.Float64frombits(binary.BigEndian.Uint64(plain[32:])) != 1 {
		t.Fatalf("bad V2 header % x", plain[:40])
	}
	payload := bytes.NewReader(plain[40 : 40+binary.BigEndian.Uint32(plain[4:])])
	counts := map[int]int64{}
	var total int64
	for index := 0; payload.Len() > 0; {
		value, err := binary.ReadVarint(payload)
		if err != nil {
			t.Fatal(err)
		}
		if value < 0 {
			index += int(-value)
			continue
		}
		if value > 0 {
			counts[index] = value
			total += value
		}
		index++
	}
	return counts, total
}

func histogramCount(t *testing.T, encoded string) int64 {
	_, total := decodeCounts(t, encoded)
	return total
}

func TestHistogramLayoutMatchesTheApp(t *testing.T) {
	// Below 2048 µs every value has its own bucket; above, buckets double.
	for _, c := range []struct{ value, low, high int64 }{
		{1, 1, 1}, {2047, 2047, 2047}, {2048, 2048, 2049}, {4095, 4094, 4095}, {4096, 4096, 4099},
		{1_000_000, 999_936, 1_000_447}, {60_000_000, 59_998_208, 60_030_975},
	} {
		if low, high := lowestEquivalent(c.value), highestEquivalent(c.value); low != c.low || high != c.high {
			t.Fatalf("%d: [%d, %d], want [%d, %d]", c.value, low, high, c.low, c.high)
		}
		if index := countsIndex(c.value); valueFromIndex(index) != c.low {
			t.Fatalf("%d: index %d goes back to %d", c.value, index, valueFromIndex(index))
		}
	}
	if countsIndex(highestUs) >= countsLength {
		t.Fatal("60 s does not fit the counts")
	}
}

func TestHistogramRecordsClampsAndReadsPercentiles(t *testing.T) {
	h := NewHistogram()
	for us := int64(1); us <= 1000; us++ {
		h.RecordUs(us)
	}
	h.RecordNs(0)              // clamped to 1 µs
	h.RecordUs(90 * 1_000_000) // clamped to 60 s
	h.RecordNs(1_499)          // 1.499 µs rounds to 1
	if h.Total() != 1003 {
		t.Fatalf("total %d", h.Total())
	}
	if p50, p99 := h.ValueAtPercentile(50), h.ValueAtPercentile(99); p50 != 500 || p99 != 991 {
		t.Fatalf("p50 %d p99 %d", p50, p99)
	}
	if h.MaxUs() != 60_030_975 {
		t.Fatalf("max %d", h.MaxUs())
	}
}

func TestHistogramMergesExactlyAndRoundTrips(t *testing.T) {
	a, b, direct := NewHistogram(), NewHistogram(), NewHistogram()
	for i := int64(0); i < 5000; i++ {
		value := 50 + (i*7919)%3_000_000
		direct.RecordUs(value)
		if i%3 == 0 {
			a.RecordUs(value)
		} else {
			b.RecordUs(value)
		}
	}
	merged := NewHistogram()
	merged.Add(a)
	merged.Add(b)
	if merged.counts != direct.counts || merged.Total() != direct.Total() || merged.MaxUs() != direct.MaxUs() {
		t.Fatal("a merge differs from recording directly")
	}
	counts, total := decodeCounts(t, merged.Encode())
	if total != 5000 {
		t.Fatalf("decoded %d values", total)
	}
	for index, count := range counts {
		if merged.counts[index] != count {
			t.Fatalf("index %d: %d decoded, %d recorded", index, count, merged.counts[index])
		}
	}
	merged.Reset()
	if merged.Total() != 0 || merged.counts != (NewHistogram()).counts {
		t.Fatal("reset left counts behind")
	}
}
