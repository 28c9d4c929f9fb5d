variable "region" {
	default = "eu-west-1"
}

resource "aws_instance" "web" {
  ami           = "ami-123"
  instance_type = "t3.micro" tags = {}
  count = [1, 2
}
