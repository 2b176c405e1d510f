func.func @f() {
  return %nope : i32
}
