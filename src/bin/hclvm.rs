fn main() {
    println!("hclvm");
}
