/* Transmit state of several types (a struct defined in its own declaration among them): every
 * member group keeps the same state, which a forked group must receive intact. Round r writes, for every element it owns, a value derived from the state. */
typedef struct tally {
    uint count;
    float weight;
} tally;

float4 step(float4 v)
{
    return v * 0.5f + (float4)(1.0f, 2.0f, 3.0f, 4.0f);
}

kernel void types(global float *out, uint n, uint rounds)
{
    transmit uint round = 0;
    transmit int delta = -3;
    transmit float scale = 1.0f;
    transmit float4 acc = (float4)(0.0f);
    transmit tally t = {0, 0.25f};
    transmit struct { uint steps; float bonus; } extra;
    /* two declarators: both move to the megakernel */
    local float stage[64], zero[1];
    extra.steps = 0;
    extra.bonus = 2.0f;
    while (round < rounds) {
        uint groups = get_num_groups(0);
        uint lid = get_local_id(0);
        uint width = get_local_size(0);
        for (uint base = get_group_id(0) * width; base < n; base += groups * width) {
            if (lid == 0)
                zero[0] = 0.0f;
            stage[lid % 64] = scale + acc.x + acc.y + acc.z + acc.w + t.weight + (float)t.count + (float)delta +
                              extra.bonus * (float)extra.steps;
            barrier(CLK_LOCAL_MEM_FENCE);
            if (base + lid < n)
                out[round * n + base + lid] = stage[(lid + 1) % 64 % width] + zero[0];
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        round++;
        delta -= 2;
        scale = scale * 1.5f;
        acc = step(acc);
        t.count += round;
        t.weight = t.weight * 0.75f;
        extra.steps++;
        resizing_global_barrier();
    }
}
