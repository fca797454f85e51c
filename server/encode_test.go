package server

import (
	"reflect"
	"testing"

	"minipg/pgerr"
)

func TestFormats(t *testing.T) {
	for _, tc := range []struct {
		codes []int16
		n     int
		want  []int16
		err   pgerr.Code
	}{
		{nil, 3, []int16{0, 0, 0}, ""},
		{[]int16{1}, 3, []int16{1, 1, 1}, ""},
		{[]int16{1, 0, 1}, 3, []int16{1, 0, 1}, ""},
		{[]int16{1}, 0, []int16{}, ""},
		{[]int16{1, 0}, 3, nil, pgerr.ProtocolViolation},
		{[]int16{2}, 1, nil, pgerr.InvalidParameterValue},
		{[]int16{0, 5}, 2, nil, pgerr.InvalidParameterValue},
	} {
		err := checkFormats(tc.codes, tc.n, "result")
		if tc.err != "" {
			if pgerr.CodeOf(err) != tc.err {
				t.Errorf("%v/%d: err %v, want %s", tc.codes, tc.n, err, tc.err)
			}
			continue
		}
		got := []int16{}
		for i := range tc.n {
			got = append(got, formatOf(tc.codes, i))
		}
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%v/%d: %v %v, want %v", tc.codes, tc.n, got, err, tc.want)
		}
	}
}

func TestWithCount(t *testing.T) {
	for in, want := range map[string]string{
		"SELECT 5":   "SELECT 2",
		"INSERT 0 5": "INSERT 0 2",
		"UPDATE 7":   "UPDATE 2",
		"SHOW":       "SHOW",
		"SET x":      "SET x",
	} {
		if got := withCount(in, 2); got != want {
			t.Errorf("withCount(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestShiftPosition(t *testing.T) {
	err := shiftPosition(pgerr.New(pgerr.SyntaxError, "x").WithPosition(3), 10)
	if pe := toPGError(err); pe.Position != 13 || pe.Code != pgerr.SyntaxError {
		t.Fatalf("%+v", pe)
	}
	err = shiftPosition(pgerr.New(pgerr.DivisionByZero, "y"), 10)
	if pe := toPGError(err); pe.Position != 0 {
		t.Fatalf("%+v", pe)
	}
}

func TestParseOptions(t *testing.T) {
	got, err := parseOptions(`-c search_path=a\ b  --Client-Min-Messages=warning -cfsm_policy=classic`)
	want := map[string]string{"search_path": "a b", "client_min_messages": "warning", "fsm_policy": "classic"}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("%v %v", got, err)
	}
	for _, bad := range []string{"-x", "-c", "-c novalue", "plain"} {
		if _, err := parseOptions(bad); pgerr.CodeOf(err) != pgerr.SyntaxError {
			t.Errorf("%q: %v", bad, err)
		}
	}
}
