// Latency histograms as app/common/hdr.ts defines them: microseconds, HDR with 3 significant
// digits over 1 µs–60 s, the same bucket layout, so merging is adding counts. Owns recording
// (clamped, allocation-free), exact merging, the percentiles as latencyStats reads them, and the
// standard compressed V2 encoding (zlib, base64) the app decodes.

package main

import (
	"bytes"
	"compress/zlib"
	"encoding/base64"
	"encoding/binary"
	"math"
	"math/bits"
)

const (
	lowestUs          = 1
	highestUs         = 60_000_000
	significantDigits = 3
	// 2 × 10^3 values of single-unit resolution need 11 bits of sub-bucket.
	subBucketCountMagnitude     = 11
	subBucketHalfCountMagnitude = subBucketCountMagnitude - 1
	subBucketCount              = 1 << subBucketCountMagnitude
	subBucketHalfCount          = subBucketCount / 2
	subBucketMask               = subBucketCount - 1
	// Buckets until 2048 << (n - 1) exceeds 60 s.
	bucketCount       = 16
	countsLength      = (bucketCount + 1) * subBucketHalfCount
	leadingZeroBase   = 64 - subBucketHalfCountMagnitude - 1
	v2CookieBase      = 0x1c849303
	compressedCookie  = 0x1c849304
	wordSizeCookieBit = 0x10
)

// Histogram counts latencies; min/max index bound the counts that are not zero, so a reset or a
// merge touches only those.
type Histogram struct {
	counts     [countsLength]int64
	total      int64
	lowIndex   int
	highIndex  int
	maxValueUs int64
}

// NewHistogram returns an empty histogram.
func NewHistogram() *Histogram {
	h := &Histogram{}
	h.Reset()
	return h
}

// Reset empties the histogram.
func (h *Histogram) Reset() {
	if h.total > 0 {
		clear(h.counts[h.lowIndex : h.highIndex+1])
	}
	h.total = 0
	h.lowIndex = countsLength
	h.highIndex = -1
	h.maxValueUs = 0
}

// Total is the number of values recorded.
func (h *Histogram) Total() int64 { return h.total }

// RecordNs records a latency given in nanoseconds, rounded to µs and clamped to 1 µs–60 s.
func (h *Histogram) RecordNs(ns int64) {
	us := (ns + 500) / 1000
	h.RecordUs(us)
}

// RecordUs records a latency in µs, clamped to 1 µs–60 s.
func (h *Histogram) RecordUs(us int64) {
	us = min(highestUs, max(lowestUs, us))
	index := countsIndex(us)
	h.counts[index]++
	h.total++
	h.lowIndex = min(h.lowIndex, index)
	h.highIndex = max(h.highIndex, index)
	h.maxValueUs = max(h.maxValueUs, us)
}

// Add adds every count of other (the same layout, so exactly).
func (h *Histogram) Add(other *Histogram) {
	if other.total == 0 {
		return
	}
	for i := other.lowIndex; i <= other.highIndex; i++ {
		h.counts[i] += other.counts[i]
	}
	h.total += other.total
	h.lowIndex = min(h.lowIndex, other.lowIndex)
	h.highIndex = max(h.highIndex, other.highIndex)
	h.maxValueUs = max(h.maxValueUs, other.maxValueUs)
}

func bucketIndexOf(value int64) int {
	return leadingZeroBase - bits.LeadingZeros64(uint64(value)|subBucketMask)
}

func countsIndex(value int64) int {
	bucket := bucketIndexOf(value)
	subBucket := int(value >> uint(bucket))
	return (bucket+1)<<subBucketHalfCountMagnitude + (subBucket - subBucketHalfCount)
}

func valueFromIndex(index int) int64 {
	bucket := (index >> subBucketHalfCountMagnitude) - 1
	subBucket := (index & (subBucketHalfCount - 1)) + subBucketHalfCount
	if bucket < 0 {
		subBucket -= subBucketHalfCount
		bucket = 0
	}
	return int64(subBucket) << uint(bucket)
}

func lowestEquivalent(value int64) int64 {
	bucket := bucketIndexOf(value)
	return (value >> uint(bucket)) << uint(bucket)
}

func highestEquivalent(value int64) int64 {
	bucket := bucketIndexOf(value)
	subBucket := value >> uint(bucket)
	shift := bucket
	if subBucket >= subBucketCount {
		shift++
	}
	return lowestEquivalent(value) + int64(1)<<uint(shift) - 1
}

// ValueAtPercentile reads a percentile as hdr-histogram-js does: the highest value equivalent to
// the bucket where the count reaches percentile × total (rounded up, at least 1).
func (h *Histogram) ValueAtPercentile(percentile float64) int64 {
	if h.total == 0 {
		return 0
	}
	requested := math.Min(percentile, 100)
	fpCount := requested / 100 * float64(h.total)
	target := max(int64(math.Ceil(fpCount-ulp(fpCount))), 1)
	var running int64
	for i := h.lowIndex; i <= h.highIndex; i++ {
		running += h.counts[i]
		if running >= target {
			value := valueFromIndex(i)
			if percentile == 0 {
				return lowestEquivalent(value)
			}
			return highestEquivalent(value)
		}
	}
	return 0
}

func ulp(x float64) float64 {
	return math.Nextafter(x, math.Inf(1)) - x
}

// MaxUs is the highest value equivalent to the largest recorded, as latencyStats reports it.
func (h *Histogram) MaxUs() int64 {
	return highestEquivalent(h.maxValueUs)
}

// Encode returns the compressed V2 encoding in base64 (the form the app stores and decodes).
func (h *Histogram) Encode() string {
	var payload bytes.Buffer
	limit := 0
	if h.total > 0 {
		limit = countsIndex(h.maxValueUs) + 1
	}
	var scratch [binary.MaxVarintLen64]byte
	for i := 0; i < limit; {
		count := h.counts[i]
		i++
		value := count
		if count == 0 {
			zeros := int64(1)
			for i < limit && h.counts[i] == 0 {
				zeros++
				i++
			}
			if zeros > 1 {
				value = -zeros
			}
		}
		payload.Write(scratch[:binary.PutVarint(scratch[:], value)])
	}
	raw := make([]byte, 40, 40+payload.Len())
	binary.BigEndian.PutUint32(raw[0:], v2CookieBase|wordSizeCookieBit)
	binary.BigEndian.PutUint32(raw[4:], uint32(payload.Len()))
	binary.BigEndian.PutUint32(raw[8:], 0) // normalizing index offset
	binary.BigEndian.PutUint32(raw[12:], significantDigits)
	binary.BigEndian.PutUint64(raw[16:], lowestUs)
	binary.BigEndian.PutUint64(raw[24:], highestUs)
	binary.BigEndian.PutUint64(raw[32:], math.Float64bits(1))
	raw = append(raw, payload.Bytes()...)

	var compressed bytes.Buffer
	writer := zlib.NewWriter(&compressed)
	_, _ = writer.Write(raw)
	_ = writer.Close()
	out := make([]byte, 8, 8+compressed.Len())
	binary.BigEndian.PutUint32(out[0:], compressedCookie|wordSizeCookieBit)
	binary.BigEndian.PutUint32(out[4:], uint32(compressed.Len()))
	out = append(out, compressed.Bytes()...)
	return base64.StdEncoding.EncodeToString(out)
}
