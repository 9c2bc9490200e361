package version

import (
	"runtime/debug"
	"testing"
)

func TestOf(t *testing.T) {
	const rev = "1a2b3c4d5e6f7a8b9c0d1a2b3c4d5e6f7a8b9c0d"
	vcs := func(modified string) []debug.BuildSetting {
		s := []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev}}
		if modified != "" {
			s = append(s, debug.BuildSetting{Key: "vcs.modified", Value: modified})
		}
		return s
	}
	tests := []struct {
		name     string
		version  string
		settings []debug.BuildSetting
		want     string
	}{
		{"no module version", "", nil, "(devel)"},
		{"devel without vcs", "(devel)", nil, "(devel)"},
		{"devel clean", "(devel)", vcs("false"), "(devel) 1a2b3c4d5e6f"},
		{"devel dirty", "(devel)", vcs("true"), "(devel) 1a2b3c4d5e6f+dirty"},
		{"revision without modified", "(devel)", vcs(""), "(devel) 1a2b3c4d5e6f"},
		{"tagged release", "v1.2.3", vcs("false"), "v1.2.3 1a2b3c4d5e6f"},
		{"pseudo-version names the commit", "v0.0.0-20260102030405-1a2b3c4d5e6f+dirty", vcs("true"), "v0.0.0-20260102030405-1a2b3c4d5e6f+dirty"},
		{"short revision", "(devel)", []debug.BuildSetting{{Key: "vcs.revision", Value: "abc"}}, "(devel) abc"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			info := &debug.BuildInfo{Main: debug.Module{Path: "github.com/cdaedge/cdaedge", Version: tt.version}, Settings: tt.settings}
			if got := Of(info); got != tt.want {
				t.Errorf("Of = %q, want %q", got, tt.want)
			}
		})
	}
}
