//! Go's `math.Log` and `math.Pow` algorithms, so `log` and `pow` round
//! like the reference (libm's results can differ in the last bit).

// The constants are Go's, written as Go writes them.
#![allow(clippy::excessive_precision, clippy::approx_constant)]

fn frexp(x: f64) -> (f64, i32) {
    if x == 0.0 || x.is_infinite() || x.is_nan() {
        return (x, 0);
    }
    let (x, mut e) = if x.abs() < f64::MIN_POSITIVE { (x * (1u64 << 52) as f64, -52) } else { (x, 0) };
    let bits = x.to_bits();
    e += ((bits >> 52) & 0x7ff) as i32 - 1022;
    let frac = f64::from_bits((bits & !(0x7ffu64 << 52)) | (1022u64 << 52));
    (frac, e)
}

fn ldexp(frac: f64, exp: i64) -> f64 {
    if frac == 0.0 || frac.is_infinite() || frac.is_nan() {
        return frac;
    }
    let (frac, e) = if frac.abs() < f64::MIN_POSITIVE { (frac * (1u64 << 52) as f64, -52i64) } else { (frac, 0) };
    let mut exp = exp.saturating_add(e);
    let bits = frac.to_bits();
    exp = exp.saturating_add(((bits >> 52) & 0x7ff) as i64 - 1023);
    if exp < -1075 {
        return 0.0f64.copysign(frac);
    }
    if exp > 1023 {
        return if frac < 0.0 { f64::NEG_INFINITY } else { f64::INFINITY };
    }
    let mut m = 1.0;
    if exp < -1022 {
        exp += 53;
        m = 1.0 / (1u64 << 53) as f64;
    }
    let bits = (bits & !(0x7ffu64 << 52)) | (((exp + 1023) as u64) << 52);
    m * f64::from_bits(bits)
}

/// Go's `math.Log` (FreeBSD's e_log.c method).
pub fn log(x: f64) -> f64 {
    const LN2_HI: f64 = 6.93147180369123816490e-01;
    const LN2_LO: f64 = 1.90821492927058770002e-10;
    const L1: f64 = 6.666666666666735130e-01;
    const L2: f64 = 3.999999999940941908e-01;
    const L3: f64 = 2.857142874366239149e-01;
    const L4: f64 = 2.222219843214978396e-01;
    const L5: f64 = 1.818357216161805012e-01;
    const L6: f64 = 1.531383769920937332e-01;
    const L7: f64 = 1.479819860511658591e-01;
    if x.is_nan() || x == f64::INFINITY {
        return x;
    }
    if x < 0.0 {
        return f64::NAN;
    }
    if x == 0.0 {
        return f64::NEG_INFINITY;
    }
    // As the amd64 assembly: raw exponent bits, mantissa scaled to [0.5, 1).
    let bits = x.to_bits();
    let mut f1 = f64::from_bits((bits & 0x000F_FFFF_FFFF_FFFF) | 0x3FE0_0000_0000_0000);
    let mut ki = ((bits >> 52) & 0x7ff) as i32 - 0x3fe;
    if f1 <= 7.07106781186547524401e-01 {
        f1 *= 2.0;
        ki -= 1;
    }
    let f = f1 - 1.0;
    let k = ki as f64;
    let s = f / (2.0 + f);
    let s2 = s * s;
    let s4 = s2 * s2;
    let t1 = s2 * (L1 + s4 * (L3 + s4 * (L5 + s4 * L7)));
    let t2 = s4 * (L2 + s4 * (L4 + s4 * L6));
    let r = t1 + t2;
    let hfsq = 0.5 * f * f;
    k * LN2_HI - ((hfsq - (s * (hfsq + r) + k * LN2_LO)) - f)
}

/// Go's `math.Exp` on amd64 (the assembly version, FMA path: the
/// reference runs on a CPU with AVX and FMA).
pub fn exp(x: f64) -> f64 {
    const LOG2E: f64 = 1.4426950408889634073599246810018920;
    const LN2U: f64 = 0.69314718055966295651160180568695068359375;
    const LN2L: f64 = 0.28235290563031577122588448175013436025525412068e-12;
    const OVERFLOW: f64 = 7.09782712893384e+02;
    const C: [f64; 7] = [
        2.4801587301587301587e-5,
        1.9841269841269841270e-4,
        1.3888888888888888889e-3,
        8.3333333333333333333e-3,
        4.1666666666666666667e-2,
        1.6666666666666666667e-1,
        0.5,
    ];
    if x.is_nan() || x == f64::INFINITY {
        return x;
    }
    if x == f64::NEG_INFINITY {
        return 0.0;
    }
    if x > OVERFLOW {
        return f64::INFINITY;
    }
    // CVTSD2SL rounds to nearest even.
    let k = (LOG2E * x).round_ties_even() as i32;
    let kf = k as f64;
    let mut r = (-kf).mul_add(LN2U, x);
    r = (-kf).mul_add(LN2L, r);
    r *= 0.0625;
    let mut p = C[0];
    for c in &C[1..] {
        p = p.mul_add(r, *c);
    }
    p = p.mul_add(r, 1.0);
    let mut y = r * p;
    for _ in 0..3 {
        y *= y + 2.0;
    }
    y = y.mul_add(y + 2.0, 1.0);
    let mut e = k + 0x3ff;
    if e <= 0 {
        if e < -52 {
            return 0.0;
        }
        e += 0x3fe;
        y *= f64::from_bits((e as u64) << 52);
        e = 1;
    } else if e >= 0x7ff {
        return f64::INFINITY;
    }
    y * f64::from_bits((e as u64) << 52)
}

fn is_odd_int(x: f64) -> bool {
    if x.abs() >= (1u64 << 53) as f64 {
        return false;
    }
    let (xi, xf) = (x.trunc(), x.fract());
    xf == 0.0 && (xi as i64) & 1 == 1
}

/// Go's `math.Pow`.
pub fn pow(x: f64, y: f64) -> f64 {
    if y == 0.0 || x == 1.0 {
        return 1.0;
    }
    if y == 1.0 {
        return x;
    }
    if x.is_nan() || y.is_nan() {
        return f64::NAN;
    }
    if x == 0.0 {
        if y < 0.0 {
            return if is_odd_int(y) { f64::INFINITY.copysign(x) } else { f64::INFINITY };
        }
        return if is_odd_int(y) { x } else { 0.0 };
    }
    if y.is_infinite() {
        if x == -1.0 {
            return 1.0;
        }
        return if (x.abs() < 1.0) == (y > 0.0) { 0.0 } else { f64::INFINITY };
    }
    if x.is_infinite() {
        if x < 0.0 {
            return pow(1.0 / x, -y);
        }
        return if y < 0.0 { 0.0 } else { f64::INFINITY };
    }
    if y == 0.5 {
        return x.sqrt();
    }
    if y == -0.5 {
        return 1.0 / x.sqrt();
    }
    let ay = y.abs();
    let (mut yi, mut yf) = (ay.trunc(), ay.fract());
    if yf != 0.0 && x < 0.0 {
        return f64::NAN;
    }
    if yi >= 9.223372036854775808e18 {
        if x == -1.0 {
            return 1.0;
        }
        return if (x.abs() < 1.0) == (y > 0.0) { 0.0 } else { f64::INFINITY };
    }
    let mut a1 = 1.0;
    let mut ae: i64 = 0;
    if yf != 0.0 {
        if yf > 0.5 {
            yf -= 1.0;
            yi += 1.0;
        }
        a1 = exp(yf * log(x));
    }
    let (mut x1, xe0) = frexp(x);
    let mut xe = xe0 as i64;
    let mut i = yi as i64;
    while i != 0 {
        if !(-(1 << 12)..=(1 << 12)).contains(&xe) {
            ae += xe;
            break;
        }
        if i & 1 == 1 {
            a1 *= x1;
            ae += xe;
        }
        x1 *= x1;
        xe <<= 1;
        if x1 < 0.5 {
            x1 += x1;
            xe -= 1;
        }
        i >>= 1;
    }
    if y < 0.0 {
        a1 = 1.0 / a1;
        ae = -ae;
    }
    ldexp(a1, ae)
}

#[cfg(test)]
mod tests {
    #[test]
    fn pow_and_log_table() {
        let rows: &[(f64, f64, f64)] = &[
            (2.0, 10.0, 1024.0),
            (2.0, -2.0, 0.25),
            (4.0, 0.5, 2.0),
            (0.0, 0.0, 1.0),
            (2.0, 64.0, 18446744073709551616.0),
            (10.0, 1e10, f64::INFINITY),
            (-8.0, 1.0 / 3.0, f64::NAN),
        ];
        for &(x, y, want) in rows {
            let got = super::pow(x, y);
            assert!(got == want || (got.is_nan() && want.is_nan()), "pow({x},{y}) = {got}, want {want}");
        }
        assert_eq!(super::log(1000.0) / super::log(10.0), 2.9999999999999996);
        assert_eq!(super::log(16.0) / super::log(2.0), 4.0);
        assert_eq!(super::log(0.0), f64::NEG_INFINITY);
    }
}
