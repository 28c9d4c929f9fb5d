package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"unicode/utf8"

	"golang.org/x/text/encoding/ianaindex"
)

func main() {
	sc := bufio.NewScanner(os.Stdin)
	out := map[string]interface{}{}
	aliases := map[string]string{}
	tables := map[string][]int{}
	enc := map[string]map[int]int{}
	for sc.Scan() {
		name := sc.Text()
		e, err := ianaindex.IANA.Encoding(name)
		if err != nil || e == nil {
			aliases[name] = ""
			continue
		}
		canon, err := ianaindex.IANA.Name(e)
		if err != nil {
			canon = "?" + name
		}
		aliases[name] = canon
		if _, ok := tables[canon]; ok {
			continue
		}
		// single-byte probe
		single := true
		dec := make([]int, 256)
		for b := 0; b < 256; b++ {
			d, err := e.NewDecoder().Bytes([]byte{byte(b)})
			if err != nil {
				dec[b] = -2
				continue
			}
			r, n := utf8.DecodeRune(d)
			if n != len(d) {
				single = false
				break
			}
			dec[b] = int(r)
		}
		if !single {
			tables[canon] = nil
			continue
		}
		tables[canon] = dec
		m := map[int]int{}
		for r := 0; r < 0x30000; r++ {
			if r >= 0xd800 && r < 0xe000 {
				continue
			}
			o, err := e.NewEncoder().Bytes([]byte(string(rune(r))))
			if err == nil {
				if len(o) != 1 {
					m[r] = -1000 - len(o)
				} else {
					m[r] = int(o[0])
				}
			}
		}
		enc[canon] = m
	}
	out["aliases"] = aliases
	out["tables"] = tables
	out["enc"] = enc
	b, _ := json.Marshal(out)
	fmt.Println(string(b))
}
