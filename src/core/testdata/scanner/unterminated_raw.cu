const char* s = R"x(never
closed )y";
void F(int x) {}
