//! cidrhost cidrnetmask cidrsubnet cidrsubnets (hashicorp/go-cty-funcs
//! `cidr`).
//!
//! The address arithmetic is a port of the Go code the reference runs, so
//! that its quirks come out the same: Go 1.19's `net.ParseCIDR`,
//! `net.IP.String`, `IP.Mask`, `IPNet.Contains` and `IPNet.String` (an
//! IPv4-mapped IPv6 prefix prints as IPv4 with the low 32 bits of its mask),
//! and apparentlymart/go-cidr's `Host`, `Subnet`, `PreviousSubnet` and
//! `NextSubnet` on `math/big` integers (a negative host number counts from
//! the end of the range, a negative network number is OR-ed in two's
//! complement).

use super::super::{go_int, str_arg, CallCtx, FnError, ELEMENT_COST};
use crate::types::Type;
use crate::value::Value;
use dashu::base::UnsignedAbs;
use dashu::integer::{IBig, UBig};

/// A Go `net.IP` or `net.IPMask`: 4 or 16 bytes, or none (Go's nil).
type Ip = Vec<u8>;

const V4_IN_V6_PREFIX: [u8; 12] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff];

struct IpNet {
    ip: Ip,
    mask: Ip,
}

/// Go's `dtoi` (decimal, stops at the first non-digit; `big` = 0xFFFFFF).
fn dtoi(s: &[u8]) -> Option<(u32, usize)> {
    let mut n: u32 = 0;
    let mut i = 0;
    while i < s.len() && s[i].is_ascii_digit() {
        n = n * 10 + (s[i] - b'0') as u32;
        if n >= 0xFF_FFFF {
            return None;
        }
        i += 1;
    }
    (i > 0).then_some((n, i))
}

/// Go's `xtoi`.
fn xtoi(s: &[u8]) -> Option<(u32, usize)> {
    let mut n: u32 = 0;
    let mut i = 0;
    while i < s.len() {
        let d = match s[i] {
            c @ b'0'..=b'9' => c - b'0',
            c @ b'a'..=b'f' => c - b'a' + 10,
            c @ b'A'..=b'F' => c - b'A' + 10,
            _ => break,
        };
        n = n * 16 + d as u32;
        if n >= 0xFF_FFFF {
            return None;
        }
        i += 1;
    }
    (i > 0).then_some((n, i))
}

/// Go's `parseIPv4` (16-byte IPv4-in-IPv6 result).
fn parse_ipv4(mut s: &[u8]) -> Option<Ip> {
    let mut p = [0u8; 4];
    for (i, b) in p.iter_mut().enumerate() {
        if s.is_empty() {
            return None;
        }
        if i > 0 {
            if s[0] != b'.' {
                return None;
            }
            s = &s[1..];
        }
        let (n, c) = dtoi(s)?;
        if n > 0xFF || (c > 1 && s[0] == b'0') {
            return None;
        }
        s = &s[c..];
        *b = n as u8;
    }
    if !s.is_empty() {
        return None;
    }
    let mut ip = V4_IN_V6_PREFIX.to_vec();
    ip.extend_from_slice(&p);
    Some(ip)
}

/// Go 1.19's `parseIPv6` (no zones).
fn parse_ipv6(mut s: &[u8]) -> Option<Ip> {
    let mut ip = vec![0u8; 16];
    let mut ellipsis: Option<usize> = None;
    if s.len() >= 2 && s[0] == b':' && s[1] == b':' {
        ellipsis = Some(0);
        s = &s[2..];
        if s.is_empty() {
            return Some(ip);
        }
    }
    let mut i = 0;
    while i < 16 {
        let (n, c) = xtoi(s)?;
        if n > 0xFFFF {
            return None;
        }
        if c < s.len() && s[c] == b'.' {
            if ellipsis.is_none() && i != 12 {
                return None;
            }
            if i + 4 > 16 {
                return None;
            }
            let ip4 = parse_ipv4(s)?;
            ip[i..i + 4].copy_from_slice(&ip4[12..16]);
            s = &[];
            i += 4;
            break;
        }
        ip[i] = (n >> 8) as u8;
        ip[i + 1] = n as u8;
        i += 2;
        s = &s[c..];
        if s.is_empty() {
            break;
        }
        if s[0] != b':' || s.len() == 1 {
            return None;
        }
        s = &s[1..];
        if s[0] == b':' {
            if ellipsis.is_some() {
                return None;
            }
            ellipsis = Some(i);
            s = &s[1..];
            if s.is_empty() {
                break;
            }
        }
    }
    if !s.is_empty() {
        return None;
    }
    if i < 16 {
        let e = ellipsis?;
        let n = 16 - i;
        for j in (e..i).rev() {
            ip[j + n] = ip[j];
        }
        for b in &mut ip[e..e + n] {
            *b = 0;
        }
    } else if ellipsis.is_some() {
        return None;
    }
    Some(ip)
}

/// Go's `net.CIDRMask`.
fn cidr_mask(ones: i64, bits: i64) -> Ip {
    if (bits != 32 && bits != 128) || ones < 0 || ones > bits {
        return Vec::new();
    }
    let mut n = ones as u32;
    (0..bits / 8)
        .map(|_| {
            if n >= 8 {
                n -= 8;
                0xff
            } else {
                let b = !(0xffu8 >> n);
                n = 0;
                b
            }
        })
        .collect()
}

/// Go's `IP.To4`.
fn to4(ip: &[u8]) -> Option<&[u8]> {
    match ip.len() {
        4 => Some(ip),
        16 if ip[..12] == V4_IN_V6_PREFIX => Some(&ip[12..]),
        _ => None,
    }
}

/// Go's `IP.Mask`.
fn ip_mask(ip: &[u8], mask: &[u8]) -> Ip {
    let mut mask = mask;
    let mut ip = ip;
    if mask.len() == 16 && ip.len() == 4 && mask[..12].iter().all(|&b| b == 0xff) {
        mask = &mask[12..];
    }
    if mask.len() == 4 && ip.len() == 16 && ip[..12] == V4_IN_V6_PREFIX {
        ip = &ip[12..];
    }
    if ip.len() != mask.len() {
        return Vec::new();
    }
    ip.iter().zip(mask).map(|(a, m)| a & m).collect()
}

/// Go's `simpleMaskLength` (-1 for a non-canonical mask).
fn simple_mask_length(mask: &[u8]) -> i64 {
    let mut n = 0;
    for (i, &v) in mask.iter().enumerate() {
        if v == 0xff {
            n += 8;
            continue;
        }
        let mut v = v;
        while v & 0x80 != 0 {
            n += 1;
            v <<= 1;
        }
        if v != 0 || mask[i + 1..].iter().any(|&b| b != 0) {
            return -1;
        }
        break;
    }
    n
}

/// Go's `IPMask.Size`.
fn mask_size(mask: &[u8]) -> (i64, i64) {
    match simple_mask_length(mask) {
        -1 => (0, 0),
        ones => (ones, mask.len() as i64 * 8),
    }
}

/// Go's `net.ParseCIDR`; the error is Go's text.
fn parse_cidr(s: &str) -> Result<IpNet, String> {
    let err = || format!("invalid CIDR address: {s}");
    let b = s.as_bytes();
    let i = b.iter().position(|&c| c == b'/').ok_or_else(err)?;
    let (addr, mask) = (&b[..i], &b[i + 1..]);
    let (ip, iplen) = match parse_ipv4(addr) {
        Some(ip) => (Some(ip), 4),
        None => (parse_ipv6(addr), 16),
    };
    let ip = ip.ok_or_else(err)?;
    let (n, used) = dtoi(mask).ok_or_else(err)?;
    if used != mask.len() || n as i64 > 8 * iplen {
        return Err(err());
    }
    let m = cidr_mask(n as i64, 8 * iplen);
    Ok(IpNet { ip: ip_mask(&ip, &m), mask: m })
}

/// Go's `IP.String`.
fn ip_string(ip: &[u8]) -> String {
    if ip.is_empty() {
        return "<nil>".into();
    }
    if let Some(p4) = to4(ip) {
        return format!("{}.{}.{}.{}", p4[0], p4[1], p4[2], p4[3]);
    }
    if ip.len() != 16 {
        let mut s = String::from("?");
        for b in ip {
            s.push_str(&format!("{b:02x}"));
        }
        return s;
    }
    let (mut e0, mut e1): (i64, i64) = (-1, -1);
    let mut i = 0;
    while i < 16 {
        let mut j = i;
        while j < 16 && ip[j] == 0 && ip[j + 1] == 0 {
            j += 2;
        }
        if j > i && (j - i) as i64 > e1 - e0 {
            e0 = i as i64;
            e1 = j as i64;
            i = j;
        }
        i += 2;
    }
    if e1 - e0 <= 2 {
        e0 = -1;
        e1 = -1;
    }
    let mut s = String::new();
    let mut i = 0usize;
    while i < 16 {
        if i as i64 == e0 {
            s.push_str("::");
            i = e1 as usize;
            if i >= 16 {
                break;
            }
        } else if i > 0 {
            s.push(':');
        }
        s.push_str(&format!("{:x}", (ip[i] as u32) << 8 | ip[i + 1] as u32));
        i += 2;
    }
    s
}

/// Go's `networkNumberAndMask`.
fn network_number_and_mask(n: &IpNet) -> Option<(Ip, Ip)> {
    let ip = match to4(&n.ip) {
        Some(v4) => v4.to_vec(),
        None if n.ip.len() == 16 => n.ip.clone(),
        None => return None,
    };
    let m = match n.mask.len() {
        4 if ip.len() != 4 => return None,
        4 => n.mask.clone(),
        16 if ip.len() == 4 => n.mask[12..].to_vec(),
        16 => n.mask.clone(),
        _ => return None,
    };
    Some((ip, m))
}

/// Go's `IPNet.String`.
fn ipnet_string(n: &IpNet) -> String {
    let Some((nn, m)) = network_number_and_mask(n) else { return "<nil>".into() };
    match simple_mask_length(&m) {
        -1 => {
            let mut s = ip_string(&nn) + "/";
            for b in &m {
                s.push_str(&format!("{b:02x}"));
            }
            s
        }
        l => format!("{}/{l}", ip_string(&nn)),
    }
}

/// Go's `IPNet.Contains`.
fn contains(n: &IpNet, ip: &[u8]) -> bool {
    let Some((nn, m)) = network_number_and_mask(n) else { return false };
    let ip = to4(ip).unwrap_or(ip);
    ip.len() == nn.len() && (0..ip.len()).all(|i| nn[i] & m[i] == ip[i] & m[i])
}

/// Go's `IP.Equal`.
fn ip_equal(a: &[u8], b: &[u8]) -> bool {
    if a.len() == b.len() {
        return a == b;
    }
    if a.len() == 4 && b.len() == 16 {
        return b[..12] == V4_IN_V6_PREFIX && a == &b[12..];
    }
    if a.len() == 16 && b.len() == 4 {
        return a[..12] == V4_IN_V6_PREFIX && &a[12..] == b;
    }
    false
}

fn is_zero_ip(ip: &[u8]) -> bool {
    // IPv4zero is the 16-byte form of 0.0.0.0; IPv6zero is 16 zero bytes.
    let v4zero: [u8; 16] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0, 0, 0, 0];
    ip_equal(ip, &v4zero) || ip_equal(ip, &[0u8; 16])
}

/// go-cidr's `checkIPv4`.
fn check_ipv4(ip: &[u8]) -> Ip {
    to4(ip).unwrap_or(ip).to_vec()
}

/// go-cidr's `ipToInt`; Go panics on other lengths.
fn ip_to_int(ip: &[u8]) -> Result<(IBig, i64), FnError> {
    let bits = match ip.len() {
        4 => 32,
        16 => 128,
        n => return Err(go_panic(&format!("Unsupported address length {n}"))),
    };
    Ok((IBig::from(UBig::from_be_bytes(ip)), bits))
}

/// go-cidr's `intToIP`: the magnitude's bytes at the end of `bits / 8`
/// bytes (Go panics when they do not fit).
fn int_to_ip(v: &IBig, bits: i64) -> Result<Ip, FnError> {
    let mag = v.clone().unsigned_abs().to_be_bytes();
    let start = mag.iter().position(|&b| b != 0).unwrap_or(mag.len());
    let mag = &mag[start..];
    let len = (bits / 8) as usize;
    if mag.len() > len {
        return Err(go_panic(&format!("runtime error: index out of range [{}]", len as i64 - (len as i64 + 1))));
    }
    let mut ret = vec![0u8; len];
    ret[len - mag.len()..].copy_from_slice(mag);
    Ok(ret)
}

fn go_panic(msg: &str) -> FnError {
    FnError::new(format!("panic in function implementation: {msg}"))
}

/// go-cidr's `insertNumIntoIP`.
fn insert_num_into_ip(ip: &[u8], num: &IBig, prefix_len: i64) -> Result<Ip, FnError> {
    let (ip_int, total) = ip_to_int(ip)?;
    let shift = (total - prefix_len) as u64 as usize;
    if *num == IBig::ZERO {
        return int_to_ip(&ip_int, total);
    }
    if shift >= 1 << 24 {
        // Far too long for the address either way (Go builds the number
        // first, then fails placing its bytes).
        let len = total / 8;
        return Err(go_panic(&format!("runtime error: index out of range [{}]", len - (len + 1))));
    }
    int_to_ip(&(ip_int | (num << shift)), total)
}

/// Go's `big.Int.Uint64`: the low 64 bits of the magnitude.
fn big_uint64(v: &IBig) -> u64 {
    let mag = v.clone().unsigned_abs();
    let low: UBig = mag & UBig::from(u64::MAX);
    u64::try_from(&low).unwrap_or(0)
}

/// go-cidr's `AddressRange`.
fn address_range(n: &IpNet) -> Result<(Ip, Ip), FnError> {
    let first = n.ip.clone();
    let (prefix_len, bits) = mask_size(&n.mask);
    if prefix_len == bits {
        return Ok((first.clone(), first));
    }
    let (first_int, bits) = ip_to_int(&first)?;
    let host_len = (bits - prefix_len) as usize;
    let last = ((IBig::ONE << host_len) - IBig::ONE) | first_int;
    Ok((first, int_to_ip(&last, bits)?))
}

/// go-cidr's `Inc` / `Dec`.
fn inc(ip: &[u8]) -> Ip {
    let mut v = check_ipv4(ip);
    for b in v.iter_mut().rev() {
        *b = b.wrapping_add(1);
        if *b > 0 {
            break;
        }
    }
    v
}

fn dec(ip: &[u8]) -> Ip {
    let mut v = check_ipv4(ip);
    for b in v.iter_mut().rev() {
        *b = b.wrapping_sub(1);
        if *b < 255 {
            break;
        }
    }
    v
}

/// go-cidr's `PreviousSubnet` (the rollover flag is not used).
fn previous_subnet(n: &IpNet, prefix_len: i64) -> IpNet {
    let start = check_ipv4(&n.ip);
    let mask = cidr_mask(prefix_len, 8 * start.len() as i64);
    let prev = dec(&start);
    IpNet { ip: ip_mask(&prev, &mask), mask }
}

/// go-cidr's `NextSubnet`.
fn next_subnet(n: &IpNet, prefix_len: i64) -> Result<(IpNet, bool), FnError> {
    let (_, current_last) = address_range(n)?;
    let mask = cidr_mask(prefix_len, 8 * current_last.len() as i64);
    let current = IpNet { ip: ip_mask(&current_last, &mask), mask: mask.clone() };
    let (_, last) = address_range(&current)?;
    let last = inc(&last);
    let next = IpNet { ip: ip_mask(&last, &mask), mask };
    let rollover = is_zero_ip(&last);
    Ok((next, rollover))
}

fn parse_prefix(s: &str) -> Result<IpNet, String> {
    parse_cidr(s).map_err(|e| format!("invalid CIDR expression: {e}"))
}

pub fn cidrhost(args: &[Value], _: &Type, _: &mut CallCtx) -> Result<Value, FnError> {
    let host_num = go_int(&args[1]).map_err(FnError::new)?;
    let network = parse_prefix(str_arg(&args[0])).map_err(FnError::new)?;
    // go-cidr's HostBig.
    let (parent_len, addr_len) = mask_size(&network.mask);
    let host_len = (addr_len - parent_len) as usize;
    let max_host = (IBig::ONE << host_len) - IBig::ONE;
    let mut num = IBig::from(host_num);
    let mut num_u = IBig::from(big_uint64(&num) as i64);
    if host_num < 0 {
        num_u = -num.clone() - IBig::ONE;
        num = &max_host - &num_u;
    }
    if num_u > max_host {
        return Err(FnError::new(format!("prefix of {parent_len} does not accommodate a host numbered {num}")));
    }
    let bitlength = if to4(&network.ip).is_some() { 32 } else { 128 };
    let ip = insert_num_into_ip(&network.ip, &num, bitlength)?;
    Ok(Value::from_string(ip_string(&ip)))
}

pub fn cidrnetmask(args: &[Value], _: &Type, _: &mut CallCtx) -> Result<Value, FnError> {
    let network = parse_prefix(str_arg(&args[0])).map_err(FnError::new)?;
    Ok(Value::from_string(ip_string(&network.mask)))
}

/// go-cidr's `SubnetBig`.
fn subnet(base: &IpNet, new_bits: i64, num: i64) -> Result<IpNet, FnError> {
    let (parent_len, addr_len) = mask_size(&base.mask);
    let new_prefix_len = parent_len.wrapping_add(new_bits);
    if new_prefix_len > addr_len {
        return Err(FnError::new(format!("insufficient address space to extend prefix of {parent_len} by {new_bits}")));
    }
    // uint64(1<<uint64(newBits)) - 1, with Go's shift (0 past 63 bits).
    let max_net = (if (new_bits as u64) < 64 { 1u64 << new_bits as u64 } else { 0 }).wrapping_sub(1);
    let num = IBig::from(num);
    if big_uint64(&num) > max_net {
        return Err(FnError::new(format!("prefix extension of {new_bits} does not accommodate a subnet numbered {num}")));
    }
    Ok(IpNet { ip: insert_num_into_ip(&base.ip, &num, new_prefix_len)?, mask: cidr_mask(new_prefix_len, addr_len) })
}

pub fn cidrsubnet(args: &[Value], _: &Type, _: &mut CallCtx) -> Result<Value, FnError> {
    let new_bits = go_int(&args[1]).map_err(FnError::new)?;
    let net_num = go_int(&args[2]).map_err(FnError::new)?;
    let network = parse_prefix(str_arg(&args[0])).map_err(FnError::new)?;
    if new_bits > 32 {
        return Err(FnError::new("may not extend prefix by more than 32 bits"));
    }
    let n = subnet(&network, new_bits, net_num)?;
    Ok(Value::from_string(ipnet_string(&n)))
}

pub fn cidrsubnets(args: &[Value], _: &Type, ctx: &mut CallCtx) -> Result<Value, FnError> {
    let network = parse_prefix(str_arg(&args[0])).map_err(|e| FnError::arg(0, e))?;
    let (start_len, _) = mask_size(&network.mask);
    let lengths = &args[1..];
    if lengths.is_empty() {
        return Ok(Value::list_empty(Type::String));
    }
    let first = go_int(&lengths[0]).map_err(|e| FnError::arg(1, e))?;
    let mut current = previous_subnet(&network, first.wrapping_add(start_len));
    let mut out = Vec::with_capacity(lengths.len().min(1 << 16));
    let addr_bits = network.ip.len() as i64 * 8;
    for (i, arg) in lengths.iter().enumerate() {
        let length = go_int(arg).map_err(|e| FnError::arg(i + 1, e))?;
        if length < 1 {
            return Err(FnError::arg(i + 1, "must extend prefix by at least one bit"));
        }
        if length > 32 {
            return Err(FnError::arg(i + 1, "may not extend prefix by more than 32 bits"));
        }
        let length = length + start_len;
        if length > addr_bits {
            let protocol = match addr_bits {
                32 => "IPv4",
                128 => "IPv6",
                _ => "IP",
            };
            return Err(FnError::arg(i + 1, format!("would extend prefix to {length} bits, which is too long for an {protocol} address")));
        }
        let (next, rollover) = next_subnet(&current, length)?;
        if rollover || !contains(&network, &next.ip) {
            return Err(FnError::arg(
                i + 1,
                format!("not enough remaining address space for a subnet with a prefix of {length} bits after {}", ipnet_string(&current)),
            ));
        }
        current = next;
        let text = ipnet_string(&current);
        ctx.charge(ELEMENT_COST + text.len() as u64)?;
        out.push(Value::from_string(text));
    }
    Value::list_of(Type::String, out).map_err(|e| FnError::new(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prints_addresses_as_go() {
        let ip = |s: &str| parse_ipv6(s.as_bytes()).unwrap();
        assert_eq!(ip_string(&ip("::")), "::");
        assert_eq!(ip_string(&ip("1::")), "1::");
        assert_eq!(ip_string(&ip("1:0:1::1")), "1:0:1::1");
        assert_eq!(ip_string(&ip("::ffff:1.2.3.4")), "1.2.3.4");
        assert_eq!(ip_string(&ip("1:2:3:4:5:6:7:8")), "1:2:3:4:5:6:7:8");
        assert_eq!(ip_string(&ip("1:0:2:3:4:5:6:7")), "1:0:2:3:4:5:6:7");
        assert!(parse_ipv4(b"01.2.3.4").is_none());
        assert_eq!(parse_cidr("10.0.0.0/33").err().unwrap(), "invalid CIDR address: 10.0.0.0/33");
    }
}
