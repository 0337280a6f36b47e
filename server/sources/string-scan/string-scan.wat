;; The byte scan of one JSON string body for cut-long-strings.ts (issue 18: ~100 ms of a cold 100 MB read was
;; this scan in JS). The caller copies a stored line to memory offset 0 and calls scan(from, len), `from` = the
;; first byte after the opening quote. Left to right, a backslash takes the next byte with it, so the first
;; quote met is the first one not escaped by an odd run of backslashes: the closing quote. Sixteen bytes at a
;; time are skipped while none is a quote, a backslash, a control byte (< 0x20) or a non-ASCII byte (>= 0x80).
;;
;; Returns the closing quote's index, or -1 when the line ends first. Sets `escapes` (backslash pairs met)
;; and `bad` (1 when the body has a control byte, a non-ASCII byte or an escape other than \" \\ \/ \b \f \n
;; \r \t: then its UTF-16 length is not its byte length minus `escapes`, and it is not cut).
;;
;; Edit this file, then `npm run wasm` writes string-scan-wasm.ts; test/unit/string-scan.test.ts checks the two agree.
(module
  (memory (export "memory") 1)
  (global $escapes (export "escapes") (mut i32) (i32.const 0))
  (global $bad (export "bad") (mut i32) (i32.const 0))

  ;; 1 when JSON allows `c` after a backslash, `u` excepted
  (func $simple (param $c i32) (result i32)
    (i32.or
      (i32.or
        (i32.or (i32.eq (local.get $c) (i32.const 0x22)) (i32.eq (local.get $c) (i32.const 0x5c)))
        (i32.or (i32.eq (local.get $c) (i32.const 0x2f)) (i32.eq (local.get $c) (i32.const 0x62))))
      (i32.or
        (i32.or (i32.eq (local.get $c) (i32.const 0x66)) (i32.eq (local.get $c) (i32.const 0x6e)))
        (i32.or (i32.eq (local.get $c) (i32.const 0x72)) (i32.eq (local.get $c) (i32.const 0x74))))))

  (func (export "scan") (param $from i32) (param $len i32) (result i32)
    (local $i i32)
    (local $v v128)
    (local $m i32)
    (local $b i32)
    (local $esc i32)
    (local $bad i32)
    (local.set $i (local.get $from))
    (block $unclosed
      (loop $next
        (block $scalar
          (loop $vector
            (br_if $scalar (i32.gt_u (i32.add (local.get $i) (i32.const 16)) (local.get $len)))
            (local.set $v (v128.load (local.get $i)))
            (local.set $m
              (i8x16.bitmask
                (v128.or
                  (v128.or
                    (i8x16.eq (local.get $v) (v128.const i8x16 34 34 34 34 34 34 34 34 34 34 34 34 34 34 34 34))
                    (i8x16.eq (local.get $v) (v128.const i8x16 92 92 92 92 92 92 92 92 92 92 92 92 92 92 92 92)))
                  (v128.or
                    (i8x16.lt_u (local.get $v) (v128.const i8x16 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32))
                    (i8x16.lt_s (local.get $v) (v128.const i8x16 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0))))))
            (if (local.get $m)
              (then
                (local.set $i (i32.add (local.get $i) (i32.ctz (local.get $m))))
                (br $scalar)))
            (local.set $i (i32.add (local.get $i) (i32.const 16)))
            (br $vector)))
        ;; one byte: a special one, or a plain one of the last < 16
        (br_if $unclosed (i32.ge_u (local.get $i) (local.get $len)))
        (local.set $b (i32.load8_u (local.get $i)))
        (if (i32.eq (local.get $b) (i32.const 0x22))
          (then
            (global.set $escapes (local.get $esc))
            (global.set $bad (local.get $bad))
            (return (local.get $i))))
        (if (i32.eq (local.get $b) (i32.const 0x5c))
          (then
            (br_if $unclosed (i32.ge_u (i32.add (local.get $i) (i32.const 1)) (local.get $len)))
            (if (i32.eqz (call $simple (i32.load8_u (i32.add (local.get $i) (i32.const 1)))))
              (then (local.set $bad (i32.const 1))))
            (local.set $esc (i32.add (local.get $esc) (i32.const 1)))
            (local.set $i (i32.add (local.get $i) (i32.const 2)))
            (br $next)))
        (if (i32.or (i32.lt_u (local.get $b) (i32.const 0x20)) (i32.ge_u (local.get $b) (i32.const 0x80)))
          (then (local.set $bad (i32.const 1))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next)))
    (global.set $escapes (local.get $esc))
    (global.set $bad (local.get $bad))
    (i32.const -1)))
