use std::collections::HashMap;
use std::fmt::Debug;
trait Shape { fn area(&self) -> f64; }
struct Sq<T>(T);
impl Shape for Sq<f64> { fn area(&self) -> f64 { self.0 * self.0 } }
#[inline(never)] fn sum<T: Copy + std::ops::Add<Output = T> + Debug, const N: usize>(a: [T; N], z: T) -> T { a.iter().fold(z, |x, y| x + *y) }
#[inline(never)] fn dynarea(s: &dyn Shape) -> f64 { s.area() }
#[inline(never)] fn callf<F: Fn(&str) -> usize>(f: F) -> usize { f("héllo") }
mod näive { #[inline(never)] pub fn ünï(x: u8) -> u8 { x.wrapping_mul(3) } }
fn main() {
    let mut m: HashMap<String, Vec<(u8, char)>> = HashMap::new();
    m.insert("a".into(), vec![(1, 'x')]);
    let v = sum([1u64, 2, 3], 0) + sum([1i32; 4], 0) as u64;
    let f = |s: &str| s.len() + m.len();
    let g: fn(u8) -> u8 = std::hint::black_box(näive::ünï); println!("{} {} {} {} {:?}", v, dynarea(&Sq(2.0)), callf(f), g(3), m);
}
