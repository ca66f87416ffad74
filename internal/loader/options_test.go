package loader

import (
	"runtime"
	"testing"
)

func TestDefaults(t *testing.T) {
	var o Options
	if BatchSize(&o) != DefaultBatchSize || InferRows(&o) != DefaultInferRows || BlockSize(&o) != DefaultBlockSize {
		t.Errorf("zero Options: batch %d, infer %d, block %d", BatchSize(&o), InferRows(&o), BlockSize(&o))
	}
	if MaxValueSize(&o, 123) != 123 {
		t.Errorf("MaxValueSize of zero Options is %d, want the database's 123", MaxValueSize(&o, 123))
	}
	if got, want := Workers(&o), max(1, runtime.GOMAXPROCS(0)-1); got != want {
		t.Errorf("Workers %d, want %d", got, want)
	}
	if Connections(&o) != 1 {
		t.Errorf("Connections %d, want 1", Connections(&o))
	}
	o = Options{BatchSize: 5, InferRows: 6, MaxValueSize: 7, Workers: 3}
	if BatchSize(&o) != 5 || InferRows(&o) != 6 || MaxValueSize(&o, 123) != 7 || Workers(&o) != 3 {
		t.Errorf("set Options not kept: %+v", o)
	}
	if Connections(&o) != 3 {
		t.Errorf("Connections %d, want Workers' 3", Connections(&o))
	}
	o.Connections = 2
	if Connections(&o) != 2 {
		t.Errorf("Connections %d, want 2", Connections(&o))
	}
	o.AllOrNothing = true
	if Connections(&o) != 1 {
		t.Errorf("Connections with AllOrNothing %d, want 1", Connections(&o))
	}
}

func TestTune(t *testing.T) {
	o := Tune(&Options{Workers: 4}, Tuning{Serial: true, BlockSize: 64})
	if Workers(o) != 1 || BlockSize(o) != 64 || TuningOf(o) != (Tuning{Serial: true, BlockSize: 64}) {
		t.Errorf("tuned: workers %d, block %d", Workers(o), BlockSize(o))
	}
	c := *o // a copy keeps its tuning
	if Workers(&c) != 1 {
		t.Error("a copy lost its tuning")
	}
}
