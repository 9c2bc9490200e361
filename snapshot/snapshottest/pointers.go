package snapshottest

import (
	"reflect"
	"strconv"
	"unsafe"
)

// InteriorPointers walks everything reachable from root (through pointers, structs,
// slices, arrays, maps and interfaces, exported or not) and returns the paths of the
// strings and slices that point into data other than at its first byte. A collector
// that walks from an interior pointer back to its object's start (TinyGo's does) pays
// for each of them at every collection in proportion to its offset, so the structures a
// runtime keeps for as long as it serves a snapshot must have none. Functions (closures)
// are not looked into.
func InteriorPointers(root any, data []byte) []string {
	if len(data) == 0 {
		return nil
	}
	w := walker{start: uintptr(unsafe.Pointer(unsafe.SliceData(data))), seen: map[visit]bool{}}
	w.end = w.start + uintptr(len(data))
	w.walk(reflect.ValueOf(root), "root")
	return w.found
}

type visit struct {
	ptr uintptr
	typ reflect.Type
}

type walker struct {
	start, end uintptr
	seen       map[visit]bool
	found      []string
}

func (w *walker) check(p uintptr, path string) {
	if p > w.start && p < w.end {
		w.found = append(w.found, path+" at offset "+strconv.FormatUint(uint64(p-w.start), 10))
	}
}

func (w *walker) walk(v reflect.Value, path string) {
	if !v.IsValid() || len(w.found) > 50 {
		return
	}
	switch v.Kind() {
	case reflect.String:
		if v.Len() > 0 {
			w.check(uintptr(unsafe.Pointer(unsafe.StringData(v.String()))), path)
		}
	case reflect.Pointer, reflect.UnsafePointer:
		if v.IsNil() {
			return
		}
		p := v.Pointer()
		w.check(p, path)
		if v.Kind() == reflect.UnsafePointer {
			return
		}
		key := visit{p, v.Type()}
		if w.seen[key] {
			return
		}
		w.seen[key] = true
		w.walk(v.Elem(), path)
	case reflect.Interface:
		w.walk(v.Elem(), path)
	case reflect.Struct:
		for i := range v.NumField() {
			w.walk(v.Field(i), path+"."+v.Type().Field(i).Name)
		}
	case reflect.Slice:
		if v.IsNil() || v.Cap() == 0 {
			return
		}
		p := v.Pointer()
		w.check(p, path)
		key := visit{p, v.Type()}
		if w.seen[key] {
			return
		}
		w.seen[key] = true
		w.elems(v, path)
	case reflect.Array:
		w.elems(v, path)
	case reflect.Map:
		if v.IsNil() {
			return
		}
		key := visit{v.Pointer(), v.Type()}
		if w.seen[key] {
			return
		}
		w.seen[key] = true
		it := v.MapRange()
		for it.Next() {
			w.walk(it.Key(), path+"[key]")
			w.walk(it.Value(), path+"[value]")
		}
	}
}

func (w *walker) elems(v reflect.Value, path string) {
	switch v.Type().Elem().Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64:
		return // no pointers inside
	}
	for i := range v.Len() {
		w.walk(v.Index(i), path+"["+strconv.Itoa(i)+"]")
	}
}
