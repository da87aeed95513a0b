kernel void unbalanced(global uint *data)
{
    data[get_global_id(0)] = 1;
    }
}
}
offer_fork();
