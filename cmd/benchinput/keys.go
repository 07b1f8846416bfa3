package main

import (
	"os"
	"path/filepath"
	"strings"
)

// writeKeys writes the keys a load generator asks for, one a line, to
// keys/<name>.txt under dir.
func writeKeys(dir, name string, keys []string) error {
	kd := filepath.Join(dir, "keys")
	if err := os.MkdirAll(kd, 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(kd, name+".txt"), []byte(strings.Join(keys, "\n")+"\n"), 0o644)
}
