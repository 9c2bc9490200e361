package wire

import (
	"errors"
	"reflect"
	"testing"
)

func TestNeedRoundTrip(t *testing.T) {
	for _, ranges := range [][]Range{
		{},
		{{Snapshot: [32]byte{1, 2, 3}, Offset: 4096, Length: 16384}},
		{{Snapshot: [32]byte{31: 0xff}, Offset: 1<<40 + 7, Length: 1<<32 - 1}, {Offset: 0, Length: 0}},
	} {
		frame := AppendNeed(nil, ranges)
		if !IsNeed(frame) || IsNeed(AppendResponse(nil, &responses[0])) {
			t.Fatalf("IsNeed does not tell the frames apart")
		}
		got, err := DecodeNeed(frame)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(ranges) || len(ranges) > 0 && !reflect.DeepEqual(got, ranges) {
			t.Errorf("round trip: %+v, want %+v", got, ranges)
		}
		if len(frame) != 12+44*len(ranges) {
			t.Errorf("frame of %d ranges is %d bytes", len(ranges), len(frame))
		}
	}
	frame := AppendNeed(nil, []Range{{Offset: 1, Length: 2}})
	for name, tc := range map[string]struct {
		data []byte
		want error
	}{
		"truncated": {frame[:len(frame)-1], ErrTruncated},
		"trailing":  {append(frame[:len(frame):len(frame)], 0), ErrTrailing},
		"magic":     {append([]byte("CDRS"), frame[4:]...), ErrMagic},
	} {
		if _, err := DecodeNeed(tc.data); !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", name, err, tc.want)
		}
	}
}

func FuzzDecodeNeed(f *testing.F) {
	f.Add(AppendNeed(nil, []Range{{Snapshot: [32]byte{9}, Offset: 4096, Length: 100}}))
	f.Add([]byte("CDNR\x01\x00\x00\x00\xff\xff\xff\xff"))
	f.Fuzz(func(t *testing.T, data []byte) {
		ranges, err := DecodeNeed(data)
		if err != nil {
			return
		}
		if again := AppendNeed(nil, ranges); string(again) != string(data) {
			t.Fatalf("a decoded frame encodes to other bytes")
		}
	})
}
