;; Dot products of int8 rows with an int16 query, four lanes at a time,
;; Hamming distances between bit codes and a query code (1,024-bit codes with
;; the query held in locals), and the histogram
;; and selection a cut over those distances needs.
;; Rows are `stride` bytes apart (a multiple of 32, zero-padded past the
;; vector's width); the query is `stride` int16 values. Two accumulators per
;; 32 bytes keep the SIMD units busy. `deno task build:kernel` turns
;; this file into dot-wasm.ts; run it after editing.
(module
  (import "env" "memory" (memory 1 65536))

  ;; The dot product of the row at `row` with the query at `query`.
  (func $dot (param $row i32) (param $stride i32) (param $query i32) (result i32)
    (local $d i32) (local $a v128) (local $b v128) (local $v v128) (local $w v128) (local $q i32)
    (local.set $a (v128.const i32x4 0 0 0 0))
    (local.set $b (v128.const i32x4 0 0 0 0))
    (local.set $q (local.get $query))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $d) (local.get $stride)))
        (local.set $v (v128.load (i32.add (local.get $row) (local.get $d))))
        (local.set $w (v128.load offset=16 (i32.add (local.get $row) (local.get $d))))
        (local.set $a (i32x4.add (local.get $a)
          (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $v)) (v128.load (local.get $q)))))
        (local.set $b (i32x4.add (local.get $b)
          (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $v)) (v128.load offset=16 (local.get $q)))))
        (local.set $a (i32x4.add (local.get $a)
          (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $w)) (v128.load offset=32 (local.get $q)))))
        (local.set $b (i32x4.add (local.get $b)
          (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $w)) (v128.load offset=48 (local.get $q)))))
        (local.set $d (i32.add (local.get $d) (i32.const 32)))
        (local.set $q (i32.add (local.get $q) (i32.const 64)))
        (br $next)))
    (local.set $a (i32x4.add (local.get $a) (local.get $b)))
    (i32.add
      (i32.add (i32x4.extract_lane 0 (local.get $a)) (i32x4.extract_lane 1 (local.get $a)))
      (i32.add (i32x4.extract_lane 2 (local.get $a)) (i32x4.extract_lane 3 (local.get $a)))))

  ;; out[i] = dot(row i, query) for the `count` rows from `rows` on.
  (func (export "scan") (param $rows i32) (param $stride i32) (param $count i32) (param $query i32) (param $out i32)
    (local $i i32)
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $count)))
        (i32.store (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 2)))
          (call $dot (i32.add (local.get $rows) (i32.mul (local.get $i) (local.get $stride)))
            (local.get $stride) (local.get $query)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next))))

  ;; out[i] = dot(row slots[i], query) for the `count` slots at `slots` (u32 each).
  (func (export "gather") (param $rows i32) (param $stride i32) (param $slots i32) (param $count i32) (param $query i32) (param $out i32)
    (local $i i32) (local $at i32)
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $count)))
        (local.set $at (i32.shl (local.get $i) (i32.const 2)))
        (i32.store (i32.add (local.get $out) (local.get $at))
          (call $dot
            (i32.add (local.get $rows)
              (i32.mul (i32.load (i32.add (local.get $slots) (local.get $at))) (local.get $stride)))
            (local.get $stride) (local.get $query)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next))))
  ;; out[i] = the number of bits where code i (`stride` bytes, a multiple of 32)
  ;; differs from the code at `query`, for the `count` codes from `codes` on.
  ;; Scalar i64.popcnt: x86-64 and ARM64 count a word's bits in one
  ;; instruction, where i8x16.popcnt is emulated with table lookups; measured
  ;; faster on 1,536-bit codes.
  ;; `hamming` for 128-byte (1,024-bit) codes: the query's 16 words stay in
  ;; locals, so a row costs 16 loads instead of 32 (1M rows: 5.6 ms, not 7.9).
  (func $hamming128 (param $codes i32) (param $count i32) (param $query i32) (param $out i32)
    (local $end i32) (local $d i32)
    (local $q0 i64) (local $q1 i64) (local $q2 i64) (local $q3 i64)
    (local $q4 i64) (local $q5 i64) (local $q6 i64) (local $q7 i64)
    (local $q8 i64) (local $q9 i64) (local $q10 i64) (local $q11 i64)
    (local $q12 i64) (local $q13 i64) (local $q14 i64) (local $q15 i64)
    (local.set $q0 (i64.load offset=0 (local.get $query)))
    (local.set $q1 (i64.load offset=8 (local.get $query)))
    (local.set $q2 (i64.load offset=16 (local.get $query)))
    (local.set $q3 (i64.load offset=24 (local.get $query)))
    (local.set $q4 (i64.load offset=32 (local.get $query)))
    (local.set $q5 (i64.load offset=40 (local.get $query)))
    (local.set $q6 (i64.load offset=48 (local.get $query)))
    (local.set $q7 (i64.load offset=56 (local.get $query)))
    (local.set $q8 (i64.load offset=64 (local.get $query)))
    (local.set $q9 (i64.load offset=72 (local.get $query)))
    (local.set $q10 (i64.load offset=80 (local.get $query)))
    (local.set $q11 (i64.load offset=88 (local.get $query)))
    (local.set $q12 (i64.load offset=96 (local.get $query)))
    (local.set $q13 (i64.load offset=104 (local.get $query)))
    (local.set $q14 (i64.load offset=112 (local.get $query)))
    (local.set $q15 (i64.load offset=120 (local.get $query)))
    (local.set $d (local.get $codes))
    (local.set $end (i32.add (local.get $out) (i32.shl (local.get $count) (i32.const 2))))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $out) (local.get $end)))
        (i32.store (local.get $out) (i32.wrap_i64 (i64.add
          (i64.add
          (i64.add
            (i64.add
              (i64.popcnt (i64.xor (i64.load offset=0 (local.get $d)) (local.get $q0)))
              (i64.popcnt (i64.xor (i64.load offset=8 (local.get $d)) (local.get $q1))))
            (i64.add
              (i64.popcnt (i64.xor (i64.load offset=16 (local.get $d)) (local.get $q2)))
              (i64.popcnt (i64.xor (i64.load offset=24 (local.get $d)) (local.get $q3)))))
          (i64.add
            (i64.add
              (i64.popcnt (i64.xor (i64.load offset=32 (local.get $d)) (local.get $q4)))
              (i64.popcnt (i64.xor (i64.load offset=40 (local.get $d)) (local.get $q5))))
            (i64.add
              (i64.popcnt (i64.xor (i64.load offset=48 (local.get $d)) (local.get $q6)))
              (i64.popcnt (i64.xor (i64.load offset=56 (local.get $d)) (local.get $q7))))))
          (i64.add
          (i64.add
            (i64.add
              (i64.popcnt (i64.xor (i64.load offset=64 (local.get $d)) (local.get $q8)))
              (i64.popcnt (i64.xor (i64.load offset=72 (local.get $d)) (local.get $q9))))
            (i64.add
              (i64.popcnt (i64.xor (i64.load offset=80 (local.get $d)) (local.get $q10)))
              (i64.popcnt (i64.xor (i64.load offset=88 (local.get $d)) (local.get $q11)))))
          (i64.add
            (i64.add
              (i64.popcnt (i64.xor (i64.load offset=96 (local.get $d)) (local.get $q12)))
              (i64.popcnt (i64.xor (i64.load offset=104 (local.get $d)) (local.get $q13))))
            (i64.add
              (i64.popcnt (i64.xor (i64.load offset=112 (local.get $d)) (local.get $q14)))
              (i64.popcnt (i64.xor (i64.load offset=120 (local.get $d)) (local.get $q15)))))))))
        (local.set $d (i32.add (local.get $d) (i32.const 128)))
        (local.set $out (i32.add (local.get $out) (i32.const 4)))
        (br $next))))
  (func (export "hamming") (param $codes i32) (param $stride i32) (param $count i32) (param $query i32) (param $out i32)
    (local $i i32) (local $d i32) (local $q i32) (local $end i32) (local $a i64) (local $b i64)
    (if (i32.eq (local.get $stride) (i32.const 128))
      (then
        (call $hamming128 (local.get $codes) (local.get $count) (local.get $query) (local.get $out))
        (return)))
    (local.set $d (local.get $codes))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $count)))
        (local.set $a (i64.const 0))
        (local.set $b (i64.const 0))
        (local.set $q (local.get $query))
        (local.set $end (i32.add (local.get $query) (local.get $stride)))
        (block $rowDone
          (loop $words
            (br_if $rowDone (i32.ge_u (local.get $q) (local.get $end)))
            (local.set $a (i64.add (local.get $a) (i64.add
              (i64.popcnt (i64.xor (i64.load (local.get $d)) (i64.load (local.get $q))))
              (i64.popcnt (i64.xor (i64.load offset=8 (local.get $d)) (i64.load offset=8 (local.get $q)))))))
            (local.set $b (i64.add (local.get $b) (i64.add
              (i64.popcnt (i64.xor (i64.load offset=16 (local.get $d)) (i64.load offset=16 (local.get $q))))
              (i64.popcnt (i64.xor (i64.load offset=24 (local.get $d)) (i64.load offset=24 (local.get $q)))))))
            (local.set $d (i32.add (local.get $d) (i32.const 32)))
            (local.set $q (i32.add (local.get $q) (i32.const 32)))
            (br $words)))
        (i32.store (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 2)))
          (i32.wrap_i64 (i64.add (local.get $a) (local.get $b))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next))))
;; out[i] = the bits where code slots[i] differs from the query code, for the
  ;; `count` slot numbers (u32) at `slots`: the second pass over the few rows a
  ;; first pass on shorter codes let through.
  (func (export "hammingGather") (param $codes i32) (param $stride i32) (param $slots i32) (param $count i32) (param $query i32) (param $out i32)
    (local $i i32) (local $d i32) (local $q i32) (local $end i32) (local $a i64) (local $b i64) (local $at i32)
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $count)))
        (local.set $at (i32.shl (local.get $i) (i32.const 2)))
        (local.set $d (i32.add (local.get $codes)
          (i32.mul (i32.load (i32.add (local.get $slots) (local.get $at))) (local.get $stride))))
        (local.set $a (i64.const 0))
        (local.set $b (i64.const 0))
        (local.set $q (local.get $query))
        (local.set $end (i32.add (local.get $query) (local.get $stride)))
        (block $rowDone
          (loop $words
            (br_if $rowDone (i32.ge_u (local.get $q) (local.get $end)))
            (local.set $a (i64.add (local.get $a) (i64.add
              (i64.popcnt (i64.xor (i64.load (local.get $d)) (i64.load (local.get $q))))
              (i64.popcnt (i64.xor (i64.load offset=8 (local.get $d)) (i64.load offset=8 (local.get $q)))))))
            (local.set $b (i64.add (local.get $b) (i64.add
              (i64.popcnt (i64.xor (i64.load offset=16 (local.get $d)) (i64.load offset=16 (local.get $q))))
              (i64.popcnt (i64.xor (i64.load offset=24 (local.get $d)) (i64.load offset=24 (local.get $q)))))))
            (local.set $d (i32.add (local.get $d) (i32.const 32)))
            (local.set $q (i32.add (local.get $q) (i32.const 32)))
            (br $words)))
        (i32.store (i32.add (local.get $out) (local.get $at))
          (i32.wrap_i64 (i64.add (local.get $a) (local.get $b))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next))))
;; counts[values[i]] += 1 (u32 counts) for the `count` i32 values at `values`:
  ;; the histogram of a pass's distances, which a cut is read from.
  (func (export "histogram") (param $values i32) (param $count i32) (param $counts i32)
    (local $end i32) (local $at i32)
    (local.set $end (i32.add (local.get $values) (i32.shl (local.get $count) (i32.const 2))))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $values) (local.get $end)))
        (local.set $at (i32.add (local.get $counts)
          (i32.shl (i32.load (local.get $values)) (i32.const 2))))
        (i32.store (local.get $at) (i32.add (i32.load (local.get $at)) (i32.const 1)))
        (local.set $values (i32.add (local.get $values) (i32.const 4)))
        (br $next))))
  ;; Writes to `out` the numbers i (u32, ascending) of the `count` i32 values at
  ;; `values` that are at most `cut`; returns how many. Branch-free: every i is
  ;; stored, and the next store goes one further only where the value passed.
  (func (export "atMost") (param $values i32) (param $count i32) (param $cut i32) (param $out i32) (result i32)
    (local $i i32) (local $n i32)
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $count)))
        (i32.store (i32.add (local.get $out) (i32.shl (local.get $n) (i32.const 2))) (local.get $i))
        (local.set $n (i32.add (local.get $n)
          (i32.le_s (i32.load (i32.add (local.get $values) (i32.shl (local.get $i) (i32.const 2))))
            (local.get $cut))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next)))
    (local.get $n))
)
