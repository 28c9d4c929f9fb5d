${greeting}, ${name}!
